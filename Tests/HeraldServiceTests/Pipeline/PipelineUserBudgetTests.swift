import Foundation
import HeraldCore
import HeraldPostgres
import Testing

@testable import HeraldService

/// The user-wide budget through the whole pipeline: one batch of 100 events for one user, posted over HTTP, in a
/// category without rate limit or collapsing.
@Suite("Pipeline: the user-wide budget", .serialized)
struct PipelineUserBudgetTests {
    let start = Date(timeIntervalSince1970: 1_796_000_000)

    /// One user with one phone, and 100 events for them posted as one batch and decided.
    func burst(_ harness: PipelineHarness) async throws {
        try await harness.user("u1")
        try await harness.device("phone", user: "u1")
        let events = (0..<100).map { PipelineHarness.event(id: "m\($0)", thread: "t\($0)", occurredAt: start) }
        let accepted = await harness.send(.post, "/v1/events", json: #"{"events":[\#(events.joined(separator: ","))]}"#)
        #expect(accepted.status == .accepted, "\(accepted.bodyText)")
        let reports = try await harness.decideAll()
        #expect(reports.map(\.eventsDone).reduce(0, +) == 100)
    }

    func outcomes(_ harness: PipelineHarness) async throws -> [String: Int] {
        let rows = try await harness.sql("SELECT outcome, count(*)::int AS n FROM decisions GROUP BY outcome")
        return try Dictionary(uniqueKeysWithValues: rows.map { (try $0.string("outcome"), try $0.int("n")) })
    }

    func phoneDeliveries(_ harness: PipelineHarness) async throws -> Int {
        try await harness.count(
            "SELECT count(*)::int FROM deliveries WHERE installation_id = 'phone' AND kind = 'alert'")
    }

    @Test func withTheUserRateLimitOffEveryEventOfTheBatchReachesTheDevice() async throws {
        var policy = ServiceConfig.defaults.policy
        policy.userRateLimit = nil
        let harness = try await PipelineHarness.make(start: start, policy: policy)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await burst(harness)
        #expect(try await outcomes(harness) == ["delivered": 100])
        #expect(try await phoneDeliveries(harness) == 100)
    }

    @Test func underTheDefaultBudgetSixtyAreDeliveredAndFortyRecordedRateLimited() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await burst(harness)
        #expect(try await outcomes(harness) == ["delivered": 60, "rate_limited": 40])
        #expect(try await phoneDeliveries(harness) == 60)
    }

    @Test func aCategoryCreatedOutsideTheUserBudgetDeliversTheWholeBatch() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        let created = await harness.send(
            .post, "/v1/categories",
            json: #"""
                {"id":"chat.message","name":"Chat message","counts_toward_user_rate_limit":false,
                 "templates":{"en":{"title":"New message","body":"{text}"}}}
                """#)
        #expect(created.status == .created, "\(created.bodyText)")
        #expect(created.json["counts_toward_user_rate_limit"] == .bool(false))
        let read = await harness.send(.get, "/v1/categories/chat.message")
        #expect(read.json["counts_toward_user_rate_limit"] == .bool(false))
        try await burst(harness)
        #expect(try await outcomes(harness) == ["delivered": 100])
        #expect(try await phoneDeliveries(harness) == 100)
    }
}
