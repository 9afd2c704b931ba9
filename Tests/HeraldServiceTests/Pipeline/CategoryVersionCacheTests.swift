import Foundation
import HeraldCore
import HeraldPostgres
import Testing

@testable import HeraldService

@Suite struct CategoryVersionCacheTests {
    /// A held version is used without its document; every edit, archive and restore is seen by the next load.
    @Test func aHeldVersionIsReusedAndEveryChangeIsSeen() async throws {
        let harness = try await PipelineHarness.make()
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        let cache = CategoryVersionCache()
        func load(_ ids: [String] = ["chat.message"]) async throws -> [String: HeraldCore.Category] {
            try await harness.database { connection in try cache.categories(ids, on: connection) }
        }

        #expect(try await load()["chat.message"]?.name == "Chat message")
        #expect(
            try await load(["chat.message", "chat.message", "nope", "Not A Slug"]).keys.sorted() == ["chat.message"])
        #expect(cache.documentsDecoded == 1)

        var renamed = PipelineHarness.chatCategory()
        renamed.name = "Direct message"
        try await update(harness, to: renamed, from: 1, action: .replace)
        #expect(try await load()["chat.message"]?.name == "Direct message")
        #expect(cache.documentsDecoded == 2)

        renamed.archived = true
        try await update(harness, to: renamed, from: 2, action: .archive)
        #expect(try await load()["chat.message"]?.archived == true)
        renamed.archived = false
        try await update(harness, to: renamed, from: 3, action: .restore)
        #expect(try await load()["chat.message"]?.archived == false)
        #expect(try await load()["chat.message"]?.name == "Direct message")
        #expect(cache.documentsDecoded == 4)
    }

    /// Decisions made through the cache follow an edit made between two batches.
    @Test func theNextBatchDecidesWithTheEditedCategory() async throws {
        let harness = try await PipelineHarness.make()
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.device("i1", user: "u1")
        let first = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "e1", occurredAt: harness.clock.now))
        #expect(first.status == .accepted)
        try await harness.decideAll()

        // Accepted while the category is live, decided after it was archived.
        let second = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "e2", occurredAt: harness.clock.now))
        #expect(second.status == .accepted)
        var archived = PipelineHarness.chatCategory()
        archived.archived = true
        try await update(harness, to: archived, from: 1, action: .archive)
        try await harness.decideAll()
        let outcomes = try await harness.sql("SELECT outcome FROM decisions ORDER BY event_seq")
        #expect(try outcomes.map { try $0.string(0) } == ["delivered", "rejected.archived_category"])
        #expect(harness.categories.documentsDecoded == 2)
    }

    /// The categories read beside the recipients' state are the ones read alone, with or without recipients, and a
    /// held version is not decoded again.
    @Test func categoriesTravelWithTheRecipientsState() async throws {
        let harness = try await PipelineHarness.make()
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.device("i1", user: "u1")
        let cache = CategoryVersionCache()
        let now = harness.clock.now
        func load(_ users: [String]) async throws -> (users: [String], devices: Int, categories: [String]) {
            try await harness.database { connection in
                try connection.transaction { connection in
                    let store = PostgresDecisionStore(connection, categoryCache: cache)
                    let (snapshot, categories) = try store.recipients(
                        users, categories: ["chat.message", "nope"], now: now, lock: true)
                    return (
                        snapshot.profiles.keys.sorted(), snapshot.devices.values.map(\.count).reduce(0, +),
                        categories.keys.sorted()
                    )
                }
            }
        }

        let both = try await load(["u1", "ghost"])
        #expect(both.users == ["u1"])
        #expect(both.devices == 1)
        #expect(both.categories == ["chat.message"])
        #expect(try await load([]).categories == ["chat.message"])
        #expect(cache.documentsDecoded == 1)
    }

    private func update(
        _ harness: PipelineHarness, to category: HeraldCore.Category, from version: Int,
        action: CategoryChange.Action
    ) async throws {
        let result = try await harness.database { connection in
            try CategoryRepository.update(
                id: category.id, expectedVersion: version, to: category, action: action, actorKeyId: nil,
                now: harness.clock.now, on: connection)
        }
        guard case .updated = result else {
            Issue.record("category update failed: \(result)")
            return
        }
    }
}
