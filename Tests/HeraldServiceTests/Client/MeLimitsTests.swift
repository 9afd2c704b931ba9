import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldService

/// One user's own app cannot grow what every push to that user costs: at most `Device.maxPerUser` active devices and
/// `Mute.maxPerUser` running mutes, whoever registers them; what exists can still be renewed.
@Suite("Per-user limits on devices and mutes", .serialized)
struct MeLimitsTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)
    /// An APNs device body whose token is unique to `number`.
    static func device(_ number: Int, user: String? = nil) -> String {
        let token = String(repeating: "ab", count: 31) + String(format: "%02x", number)
        let owner = user.map { #""user_id":"\#($0)","# } ?? ""
        return #"{\#(owner)"platform":"apns","token":"\#(token)","app_id":"com.example.app"}"#
    }

    @Test func aUserHoldsAtMostAHundredActiveDevices() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.user("u1")
        for index in 1..<Device.maxPerUser { try await harness.device("d\(index)", user: "u1") }
        // The hundredth comes in; the next does not, from the app or from the backend.
        #expect(
            await harness.sendAsClient("u1", .put, "/v1/me/devices/d100", json: Self.device(100)).status == .created)
        let refused = await harness.sendAsClient(
            "u1", .put, "/v1/me/devices/d101", json: Self.device(101))
        #expect(refused.status == .conflict)
        #expect(refused.json["type"]?.stringValue?.hasSuffix("too-many-devices") == true)
        let backend = await harness.send(
            .put, "/v1/devices/d102",
            json: Self.device(102, user: "u1"))
        #expect(backend.status == .conflict)
        #expect(try await harness.count("SELECT count(*) FROM devices WHERE user_id = 'u1'") == Device.maxPerUser)
        // A device already held is renewed; a deactivated one makes room.
        #expect(await harness.sendAsClient("u1", .put, "/v1/me/devices/d100", json: Self.device(100)).status == .ok)
        _ = try await harness.sql(
            "UPDATE devices SET active = false, deactivated_at = $1 WHERE installation_id = 'd1'", [harness.clock.now])
        #expect(
            await harness.sendAsClient(
                "u1", .put, "/v1/me/devices/d101",
                json: Self.device(101)
            ).status == .created)
    }

    @Test func aUserHasAtMostAThousandMutesRunning() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.user("u1")
        _ = try await harness.sql(
            """
            INSERT INTO user_mutes (user_id, scope, key, until, created_at)
            SELECT 'u1', 'thread', 'thread-' || g, NULL, $2 FROM generate_series(1, $1::integer) g
            """, [Mute.maxPerUser, harness.clock.now])
        let refused = await harness.sendAsClient(
            "u1", .post, "/v1/me/mutes", json: #"{"scope":"thread","key":"thread-new"}"#)
        #expect(refused.status == .conflict)
        #expect(refused.json["type"]?.stringValue?.hasSuffix("too-many-mutes") == true)
        // Renewing one that runs is not a new one.
        let renewed = await harness.sendAsClient(
            "u1", .post, "/v1/me/mutes", json: #"{"scope":"thread","key":"thread-7"}"#)
        #expect(renewed.status == .ok)
        // One that ran out makes room.
        _ = try await harness.sql(
            "UPDATE user_mutes SET until = $1 WHERE key = 'thread-8'", [harness.clock.now.addingTimeInterval(-1)])
        let added = await harness.sendAsClient(
            "u1", .post, "/v1/me/mutes", json: #"{"scope":"thread","key":"thread-new"}"#)
        #expect(added.status == .created)
    }
}
