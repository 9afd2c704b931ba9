import Foundation
import HeraldHTTP
import Testing

@testable import HeraldService

/// An id deleted and created again names another person: the first one's notifications stay as the record of what
/// was decided, but the second sees none of them and cannot read them.
@Suite("A deleted user's notifications")
struct UsersDeleteTests {
    @Test("A user created again under the same id starts with an empty feed, and reading an old item changes nothing")
    func createdAgain() async throws {
        let harness = try await PipelineHarness.make(start: Date())
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.device("phone", user: "u1")
        _ = await harness.send(
            .post, "/v1/events",
            json: PipelineHarness.event(
                id: "first", item: "item-first", occurredAt: harness.clock.now, data: #"{"text":"for the first"}"#))
        try await harness.decideAll()
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u1'") == 1)

        #expect(await harness.send(.delete, "/v1/users/u1").status == .noContent)
        harness.clock.advance(60)
        try await harness.user("u1")
        try await harness.device("tablet", user: "u1")
        let feed = await harness.sendAsClient("u1", .get, "/v1/me/feed")
        #expect(feed.status == .ok)
        #expect(feed.json["items"] == .array([]))
        #expect(!String(decoding: feed.body, as: UTF8.self).contains("for the first"))

        _ = await harness.send(
            .post, "/v1/events",
            json: PipelineHarness.event(id: "second", item: "item-second", occurredAt: harness.clock.now))
        try await harness.decideAll()
        let read = await harness.send(.post, "/v1/users/u1/read", json: #"{"item_ids":["item-first"]}"#)
        #expect(read.status == .ok)
        #expect(read.json["items_read"] == .int(0))
        #expect(read.json["unread_count"] == .int(1))
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u1'") == 1)
        // The first person's notification is still on record, read as of the deletion.
        let retired = try await harness.sql(
            """
            SELECT feed_seq IS NULL AND NOT counts_unread AND read_at IS NOT NULL FROM decisions d
            JOIN events e ON e.seq = d.event_seq WHERE e.id = 'first'
            """)
        #expect(try retired.map { try $0.bool(0) } == [true])
    }

    @Test("What a deleted user's apps reported and taught is gone, so a user created again starts afresh")
    func receiptsAndStreaksGo() async throws {
        let harness = try await PipelineHarness.make(start: Date())
        defer { harness.close() }
        try await harness.user("u1")
        _ = try await harness.sql(
            """
            INSERT INTO receipts (user_id, notification_id, device, event, category_id, at, received_at)
            VALUES ('u1', 'n1', 'phone', 'dismissed', 'chat.message', $1, $1)
            """, [harness.clock.now])
        _ = try await harness.sql(
            """
            INSERT INTO dismissal_streaks (user_id, category_id, streak, updated_at)
            VALUES ('u1', 'chat.message', 2, $1)
            """, [harness.clock.now])
        #expect(await harness.send(.delete, "/v1/users/u1").status == .noContent)
        #expect(try await harness.count("SELECT count(*) FROM receipts") == 0)
        #expect(try await harness.count("SELECT count(*) FROM dismissal_streaks") == 0)
    }
}
