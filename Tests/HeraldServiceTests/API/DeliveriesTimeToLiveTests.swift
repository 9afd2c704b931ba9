import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldService

/// A push claimed again after a retry carries the time it has left, not the time it had when it was built.
@Suite("Delivery time to live", .serialized)
struct DeliveriesTimeToLiveTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)

    @Test(arguments: [Device.Platform.webpush, .wns, .fcm])
    func aPushClaimedAgainCarriesWhatIsLeft(platform: Device.Platform) async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory(ttlSeconds: 3_600))
        try await harness.user("u1")
        try await harness.device("d", user: "u1", platform: platform)
        _ = await harness.send(.post, "/v1/events", json: PipelineHarness.event(id: "t1", occurredAt: start))
        try await harness.decideAll()
        let claim = #"{"platform":"\#(platform.rawValue)","limit":1,"lease_seconds":60}"#
        let first = try #require(
            await harness.send(.post, "/v1/deliveries/claim", json: claim).json["deliveries"]?.arrayValue.first)
        #expect(Self.ttl(first, platform) == 3_600)
        let id = try #require(first["id"]?.stringValue)
        let lease = try #require(first["lease_id"]?.stringValue)
        _ = await harness.send(
            .post, "/v1/deliveries/ack",
            json: #"{"acks":[{"id":"\#(id)","lease_id":"\#(lease)","outcome":"retry","retry_after_seconds":3000}]}"#)
        harness.clock.advance(3_000)
        let again = try #require(
            await harness.send(.post, "/v1/deliveries/claim", json: claim).json["deliveries"]?.arrayValue.first)
        #expect(again["id"]?.stringValue == id)
        #expect(Self.ttl(again, platform) == 600)
    }

    /// The relative time to live a claimed delivery carries, in seconds.
    static func ttl(_ delivery: HeraldHTTP.JSONValue, _ platform: Device.Platform) -> Int? {
        switch platform {
        case .webpush: return delivery["headers"]?["TTL"]?.stringValue.flatMap { Int($0) }
        case .wns: return delivery["headers"]?["X-WNS-TTL"]?.stringValue.flatMap { Int($0) }
        default:
            guard let body = delivery["body"]?.stringValue, let parsed = try? JSONParser.parse(Array(body.utf8)),
                let text = parsed["message"]?["android"]?["ttl"]?.stringValue
            else { return nil }
            return Int(text.dropLast())
        }
    }
}
