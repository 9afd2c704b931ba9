import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldService

/// An installation that moves to another user leaves its old owner's Live Activity tokens behind: the new owner
/// neither reads them nor gets its updates pushed to them.
@Suite("Live Activities of a moved installation", .serialized)
struct LiveActivitiesMoveTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)
    static let activityToken = String(repeating: "5e", count: 40)

    @Test func aMoveDropsTheOldOwnersActivityTokens() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        var category = PipelineHarness.chatCategory(id: "sports.score")
        category.kind = .liveActivity
        category.quietHours = .bypass
        try await harness.category(category)
        for user in ["u1", "u2"] { try await harness.user(user) }
        try await harness.device("phone", user: "u1", platform: .apns)
        let registered = await harness.sendAsClient(
            "u1", .put, "/v1/me/devices/phone/live-activities/match-42",
            json: #"{"token":"\#(Self.activityToken)"}"#)
        #expect(registered.status == .created)

        let token = PipelineHarness.token("phone", platform: .apns)
        let moved = await harness.send(
            .put, "/v1/devices/phone",
            json: #"{"user_id":"u2","platform":"apns","token":"\#(token)","app_id":"com.example.app"}"#)
        #expect(moved.status == .ok)
        #expect(try await harness.count("SELECT count(*) FROM live_activity_tokens") == 0)
        let read = await harness.sendAsClient("u2", .get, "/v1/me/devices/phone/live-activities")
        #expect(read.status == .ok)
        #expect(!String(decoding: read.body, as: UTF8.self).contains(Self.activityToken))

        let event = PipelineHarness.event(
            id: "goal-1", category: "sports.score", users: ["u2"], occurredAt: start, data: #"{"home":2}"#)
        let body = event.dropLast() + #","live_activity":{"activity_id":"match-42"}}"#
        #expect(await harness.send(.post, "/v1/events", json: String(body)).status == .accepted)
        try await harness.decideAll()
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE token = $1", [Self.activityToken]) == 0)
    }
}
