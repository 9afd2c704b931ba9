import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldService

/// A push held back is claimed with the unread count of its claim, not the count of its decision.
@Suite("Delivery badge", .serialized)
struct DeliveriesBadgeTests {
    /// 2026-12-01T22:30:00Z, 23:30 in Berlin: quiet hours.
    let lateEvening = Date(timeIntervalSince1970: 1_796_164_200)
    /// 2026-12-02T06:00:00Z, 07:00 in Berlin: the end of quiet hours.
    let morning = Date(timeIntervalSince1970: 1_796_191_200)

    /// A Berlin user with quiet hours from 22:00 to 07:00 and one phone of `platform`; a chat category held by
    /// quiet hours and an urgent one that goes through them.
    func nightUser(_ platform: Device.Platform) async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: lateEvening)
        try await harness.category(PipelineHarness.chatCategory(quietHours: .defer))
        try await harness.category(PipelineHarness.chatCategory(id: "chat.urgent", quietHours: .bypass))
        try await harness.user("night", timeZone: "Europe/Berlin", quiet: (start: 22 * 60, end: 7 * 60))
        try await harness.device("phone", user: "night", platform: platform)
        return harness
    }

    func claim(_ harness: PipelineHarness) async throws -> [HeraldHTTP.JSONValue] {
        try #require(await harness.send(.post, "/v1/deliveries/claim", json: "{}").json["deliveries"]?.arrayValue)
    }

    /// Acks claimed deliveries as sent.
    func ack(_ harness: PipelineHarness, _ deliveries: [HeraldHTTP.JSONValue]) async throws {
        let acks = try deliveries.map { delivery in
            let id = try #require(delivery["id"]?.stringValue)
            let lease = try #require(delivery["lease_id"]?.stringValue)
            return #"{"id":"\#(id)","lease_id":"\#(lease)","outcome":"sent"}"#
        }
        let answer = await harness.send(
            .post, "/v1/deliveries/ack", json: #"{"acks":[\#(acks.joined(separator: ","))]}"#)
        #expect(answer.status == .ok)
    }

    /// The badge in a claimed push's body.
    static func badge(_ delivery: HeraldHTTP.JSONValue, _ platform: Device.Platform) -> Int? {
        guard let body = delivery["body"]?.stringValue, let parsed = try? JSONParser.parse(Array(body.utf8)) else {
            return nil
        }
        switch platform {
        case .apns: return parsed["aps"]?["badge"]?.intValue
        case .fcm: return parsed["message"]?["data"]?["badge"]?.stringValue.flatMap { Int($0) }
        case .webpush, .wns: return parsed["badge"]?.intValue
        }
    }

    @Test(arguments: [Device.Platform.apns, .fcm, .webpush])
    func anAlertHeldUntilMorningShowsTheCountOfTheMorning(platform: Device.Platform) async throws {
        let harness = try await nightUser(platform)
        defer { harness.close() }
        _ = await harness.send(
            .post, "/v1/events",
            json: PipelineHarness.event(id: "late", users: ["night"], occurredAt: lateEvening))
        try await harness.decideAll()
        harness.clock.advance(1_800)
        _ = await harness.send(
            .post, "/v1/events",
            json: PipelineHarness.event(
                id: "urgent", category: "chat.urgent", users: ["night"], occurredAt: harness.clock.now))
        try await harness.decideAll()

        let now = try await claim(harness)
        #expect(now.count == 1)
        #expect(now.first?["event"]?["id"]?.stringValue == "urgent")
        #expect(now.first.flatMap { Self.badge($0, platform) } == 2)
        try await ack(harness, now)

        harness.clock.set(morning)
        let held = try await claim(harness)
        #expect(held.count == 1)
        #expect(held.first?["event"]?["id"]?.stringValue == "late")
        // Decided with 1 unread; the urgent push already showed 2, and both are unread.
        #expect(held.first.flatMap { Self.badge($0, platform) } == 2)
        // The row keeps the body it was decided with; only what is handed out changes.
        let stored = try await harness.sql("SELECT body FROM deliveries WHERE event_id = 'late'")
        #expect(try Self.badge(.object(["body": .string(stored[0].string("body"))]), platform) == 1)
    }

    @Test func aReadBeforeTheMorningLowersTheHeldPushsBadge() async throws {
        let harness = try await nightUser(.apns)
        defer { harness.close() }
        // The urgent message first: the held one is decided with 2 unread.
        _ = await harness.send(
            .post, "/v1/events",
            json: PipelineHarness.event(
                id: "urgent", category: "chat.urgent", users: ["night"], item: "m2", occurredAt: lateEvening))
        try await harness.decideAll()
        _ = await harness.send(
            .post, "/v1/events",
            json: PipelineHarness.event(id: "late", users: ["night"], item: "m1", occurredAt: lateEvening))
        try await harness.decideAll()
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'night'") == 2)
        let read = await harness.send(.post, "/v1/users/night/read", json: #"{"item_ids":["m2"]}"#)
        #expect(read.status == .ok)
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'night'") == 1)

        harness.clock.set(morning)
        let held = try await claim(harness).filter { $0["event"]?["id"]?.stringValue == "late" }
        #expect(held.count == 1)
        #expect(held.first.flatMap { Self.badge($0, .apns) } == 1)
    }

    /// A push whose first sender never acked it is handed out again after pushes decided later went out: it carries
    /// the count of its second claim.
    @Test func aPushHandedOutAgainAfterItsLeaseRanOutShowsTheCountOfThen() async throws {
        let harness = try await nightUser(.apns)
        defer { harness.close() }
        harness.clock.set(morning)
        _ = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "first", users: ["night"], occurredAt: morning))
        try await harness.decideAll()
        let lost = try await claim(harness)
        #expect(lost.first.flatMap { Self.badge($0, .apns) } == 1)
        _ = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "second", users: ["night"], occurredAt: morning))
        try await harness.decideAll()
        let second = try await claim(harness)
        #expect(second.first.flatMap { Self.badge($0, .apns) } == 2)
        try await ack(harness, second)
        harness.clock.advance(61)
        let again = try await claim(harness)
        #expect(again.first?["event"]?["id"]?.stringValue == "first")
        #expect(again.first.flatMap { Self.badge($0, .apns) } == 2)
    }
}
