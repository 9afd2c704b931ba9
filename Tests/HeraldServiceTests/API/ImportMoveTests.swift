import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldService

/// An import that gives an installation to another user moves it as a registration does: the old owner's loss is
/// recorded, and its queued pushes and Live Activity tokens on the installation go.
@Suite("Import moving an installation", .serialized)
struct ImportMoveTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)

    @Test func anImportedMoveDropsWhatWasTheOldOwners() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        for user in ["u1", "u2"] { try await harness.user(user) }
        try await harness.device("phone", user: "u1", platform: .apns)
        let activity = await harness.send(
            .put, "/v1/devices/phone/live-activities/match-42",
            json: #"{"token":"\#(String(repeating: "5e", count: 40))"}"#)
        #expect(activity.status == .created)
        _ = await harness.send(.post, "/v1/events", json: PipelineHarness.event(id: "m1", occurredAt: start))
        try await harness.decideAll()
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE state = 'queued'") == 1)

        let token = PipelineHarness.token("phone", platform: .apns)
        let line =
            #"{"id":"u2","devices":[{"installation_id":"phone","platform":"apns","token":"\#(token)","#
            + #""app_id":"com.example.app"}]}"#
        let response = await harness.send(.post, "/v1/users:import", body: line, contentType: "application/x-ndjson")
        #expect(response.status == .ok)

        #expect(try await harness.sql("SELECT user_id FROM devices").map { try $0.string(0) } == ["u2"])
        let recorded = try await harness.sql("SELECT user_id, cause FROM device_deactivations")
        #expect(try recorded.map { "\(try $0.string(0)) \(try $0.string(1))" } == ["u1 user_changed"])
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE state = 'queued'") == 0)
        #expect(try await harness.count("SELECT count(*) FROM live_activity_tokens") == 0)
    }
}
