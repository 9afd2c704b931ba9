import Foundation
import HeraldCore
import HeraldPostgres
import Testing

@testable import HeraldService

/// What a batch's commit tells the queue's consumers: a transaction that queued deliveries due at once notifies the
/// ready channel, one whose deliveries wait for later does not.
@Suite("Decision store: the queue's ready channel", .serialized)
struct PostgresDecisionStoreTests {
    /// 2026-12-01T22:30:00Z, which is 23:30 in Berlin.
    let lateEvening = Date(timeIntervalSince1970: 1_796_164_200)

    @Test func aCommitThatQueuedDueDeliveriesNotifiesAndADeferredOneDoesNot() async throws {
        let harness = try await PipelineHarness.make(start: lateEvening)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory(quietHours: .defer))
        try await harness.user("night", timeZone: "Europe/Berlin", quiet: (start: 22 * 60, end: 7 * 60))
        try await harness.device("lamp", user: "night")
        try await harness.user("day", timeZone: "America/New_York")
        try await harness.device("phone", user: "day")
        let listener = try PostgresListener(conninfo: harness.conninfo, channels: [DeliveryRepository.readyChannel])
        defer { listener.stop() }
        var events = listener.events.makeAsyncIterator()
        #expect(await events.next() == .listening)

        // Deferred to the end of the night: queued, but nobody could claim it yet.
        _ = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "late", users: ["night"], occurredAt: lateEvening))
        try await harness.decideAll()
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE available_at > $1", [lateEvening]) == 1)
        // Notifications arrive in commit order, so whatever comes before this marker came from the batch above.
        _ = try await harness.sql("SELECT pg_notify($1, 'marker')", [DeliveryRepository.readyChannel])
        #expect(try await payloads(&events, through: "marker") == ["marker"])

        _ = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "now", users: ["day"], occurredAt: lateEvening))
        try await harness.decideAll()
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE available_at <= $1", [lateEvening]) == 1)
        _ = try await harness.sql("SELECT pg_notify($1, 'marker')", [DeliveryRepository.readyChannel])
        #expect(try await payloads(&events, through: "marker") == ["", "marker"])
    }

    /// The payloads of the notifications up to and including `last`.
    private func payloads(
        _ events: inout AsyncStream<PostgresListener.Event>.Iterator, through last: String
    ) async throws -> [String] {
        var payloads: [String] = []
        while payloads.last != last {
            guard let event = await events.next() else {
                Issue.record("the listener stopped before '\(last)': \(payloads)")
                return payloads
            }
            if case .notification(let notification) = event { payloads.append(notification.payload) }
        }
        return payloads
    }
}
