import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldService

@Suite("Event simulation", .serialized)
struct EventsSimulateTests {
    /// 2026-12-01T22:30:00Z: 23:30 in Berlin.
    let lateEvening = Date(timeIntervalSince1970: 1_796_164_200)

    static let tables = [
        "events", "decisions", "digests", "deliveries", "recipient_counters", "rate_buckets", "collapse_groups",
        "silent_budgets", "timers",
    ]

    func rowCounts(_ harness: PipelineHarness) async throws -> [Int] {
        var counts: [Int] = []
        for table in Self.tables { counts.append(try await harness.count("SELECT count(*) FROM \(table)")) }
        return counts
    }

    @Test func aSimulationShowsTheDecisionAndThePushesAndWritesNothing() async throws {
        let harness = try await PipelineHarness.make(start: lateEvening)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory(quietHours: .defer))
        try await harness.user("night", timeZone: "Europe/Berlin", quiet: (start: 22 * 60, end: 7 * 60))
        try await harness.device("phone", user: "night", platform: .apns)
        try await harness.device("laptop", user: "night", platform: .webpush)
        // Some state exists already, so "nothing written" is not trivially true.
        _ = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "real", users: ["night"], occurredAt: lateEvening))
        try await harness.decideAll()
        let before = try await rowCounts(harness)

        let event = PipelineHarness.event(id: "what-if", users: ["night", "stranger"], occurredAt: lateEvening)
        let atNight = await harness.send(.post, "/v1/events:simulate", json: event)
        #expect(atNight.status == .ok)
        guard case .array(let recipients)? = atNight.json["recipients"] else {
            Issue.record("no recipients: \(atNight.bodyText)")
            return
        }
        #expect(
            recipients.map { $0["reason"] } == [.string("deferred.quiet_hours"), .string("suppressed.unknown_user")])
        #expect(recipients[0]["deliver_at"] == .string("2026-12-02T06:00:00Z"))
        #expect(recipients[0]["badge"] == .int(2))
        guard case .array(let pushes)? = recipients[0]["deliveries"] else {
            Issue.record("no deliveries")
            return
        }
        #expect(Set(pushes.map { $0["platform"] }) == [.string("apns"), .string("webpush")])
        #expect(pushes.allSatisfy { $0["headers"] != nil && $0["body"] != nil })
        #expect(pushes.contains { if case .string(let body)? = $0["body"] { body.contains("\"aps\"") } else { false } })

        let noon = #"{"at":"2026-12-02T11:00:00Z","# + event.dropFirst()
        let atNoon = await harness.send(.post, "/v1/events:simulate", json: String(noon))
        guard case .array(let daytime)? = atNoon.json["recipients"] else {
            Issue.record("no recipients at noon: \(atNoon.bodyText)")
            return
        }
        #expect(daytime.first?["reason"] == .string("delivered"))
        #expect(atNoon.json["at"] == .string("2026-12-02T11:00:00Z"))

        #expect(try await rowCounts(harness) == before)
        #expect(await harness.send(.get, "/v1/events/chat/what-if").status == .notFound)
    }

    @Test func aSimulationOfAnUnknownCategoryOrABadInstantIs422() async throws {
        let harness = try await PipelineHarness.make(start: lateEvening)
        defer { harness.close() }
        let unknown = await harness.send(
            .post, "/v1/events:simulate",
            json: PipelineHarness.event(id: "x", category: "nope", occurredAt: lateEvening))
        #expect(unknown.status == .unprocessableContent)
        #expect(unknown.json["pointer"] == .string("/category"))
        let badAt = #"{"at":"soon","# + PipelineHarness.event(id: "x", occurredAt: lateEvening).dropFirst()
        let bad = await harness.send(.post, "/v1/events:simulate", json: String(badAt))
        #expect(bad.status == .unprocessableContent)
        #expect(bad.json["pointer"] == .string("/at"))
    }

    /// The pushes show no device's push token: an FCM body names its device by token, and a key that may publish
    /// events may not read users' devices.
    @Test func aSimulationHidesThePushTokens() async throws {
        let harness = try await PipelineHarness.make(start: lateEvening)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("ana")
        let platforms: [Device.Platform] = [.apns, .fcm, .webpush, .wns]
        for platform in platforms {
            try await harness.device("\(platform.rawValue)-1", user: "ana", platform: platform)
        }
        let event = PipelineHarness.event(id: "what-if", users: ["ana"], occurredAt: lateEvening)
        let simulated = await harness.send(.post, "/v1/events:simulate", json: event)
        #expect(simulated.status == .ok)
        let text = simulated.bodyText
        for platform in platforms {
            #expect(!text.contains(PipelineHarness.token("\(platform.rawValue)-1", platform: platform)), "\(platform)")
        }
        #expect(text.contains(EventsAPI.SimulatedDelivery.redactedToken))
        guard case .array(let recipients)? = simulated.json["recipients"],
            case .array(let pushes)? = recipients.first?["deliveries"]
        else {
            Issue.record("no deliveries: \(text)")
            return
        }
        #expect(pushes.count == platforms.count)
    }
}
