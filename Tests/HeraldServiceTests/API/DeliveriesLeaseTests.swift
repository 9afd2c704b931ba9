import Foundation
import HeraldCore
import HeraldHTTP
import HeraldObservability
import Testing

@testable import HeraldService

/// An ack counts only under the lease its claim returned; a consumer whose lease ran out changes nothing.
@Suite("Delivery leases", .serialized)
struct DeliveriesLeaseTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)

    /// One event queued for u1's phone (APNs).
    func prepared() async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: start)
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.device("phone", user: "u1", platform: .apns)
        _ = await harness.send(.post, "/v1/events", json: PipelineHarness.event(id: "l1", occurredAt: start))
        try await harness.decideAll()
        return harness
    }

    func claimOne(_ harness: PipelineHarness, leaseSeconds: Int) async -> (id: String, lease: String)? {
        let response = await harness.send(
            .post, "/v1/deliveries/claim", json: #"{"platform":"apns","limit":1,"lease_seconds":\#(leaseSeconds)}"#)
        guard case .array(let deliveries)? = response.json["deliveries"], let first = deliveries.first,
            case .string(let id)? = first["id"], case .string(let lease)? = first["lease_id"]
        else { return nil }
        return (id, lease)
    }

    func ack(_ harness: PipelineHarness, id: String, lease: String, _ outcome: String) async -> HeraldHTTP.JSONValue {
        let body = #"{"acks":[{"id":"\#(id)","lease_id":"\#(lease)","outcome":"\#(outcome)"}]}"#
        return await harness.send(.post, "/v1/deliveries/ack", json: body).json["results"]?.firstResult ?? .null
    }

    @Test func aLateDeadTokenAckFromAnExpiredLeaseChangesNothing() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let a = try #require(await claimOne(harness, leaseSeconds: 1))
        harness.clock.advance(2)
        let b = try #require(await claimOne(harness, leaseSeconds: 60))
        #expect(b.id == a.id)
        #expect(b.lease != a.lease)

        let late = await ack(harness, id: a.id, lease: a.lease, "dead_token")
        #expect(late["status"] == .string("stale"))
        #expect(late["state"] == nil)
        #expect(try await harness.count("SELECT count(*) FROM devices WHERE installation_id = 'phone' AND active") == 1)
        #expect(
            try await harness.count(
                "SELECT count(*) FROM deliveries WHERE id = $1 AND state = 'leased' AND lease_id = $2", [b.id, b.lease])
                == 1)
        #expect(harness.context.metrics.counterValue("herald_delivery_acks_total", labels: ["stale"]) == 1)

        let sent = await ack(harness, id: b.id, lease: b.lease, "sent")
        #expect(sent["status"] == .string("ok"))
        #expect(sent["state"] == .string("sent"))
        #expect(
            try await harness.count("SELECT count(*) FROM deliveries WHERE id = $1 AND state = 'sent'", [b.id]) == 1)
    }

    @Test func eachClaimOfARowGetsAFreshLease() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let first = try #require(await claimOne(harness, leaseSeconds: 10))
        #expect(await ack(harness, id: first.id, lease: first.lease, "retry")["state"] == .string("queued"))
        harness.clock.advance(5)
        let second = try #require(await claimOne(harness, leaseSeconds: 10))
        #expect(second.id == first.id)
        #expect(second.lease != first.lease)
        #expect(second.lease.utf8.count == 32)
        // The first lease ended with its own ack; replaying it is stale and leaves the second lease alone.
        #expect(await ack(harness, id: first.id, lease: first.lease, "sent")["status"] == .string("stale"))
        #expect(await ack(harness, id: second.id, lease: second.lease, "sent")["status"] == .string("ok"))
    }

    @Test(arguments: [
        #"{"acks":[{"id":"x","outcome":"sent"}]}"#,
        #"{"acks":[{"id":"x","lease_id":"","outcome":"sent"}]}"#,
        #"{"acks":[{"id":"x","lease_id":"no spaces","outcome":"sent"}]}"#,
        #"{"acks":[{"id":"x","lease_id":"\#(String(repeating: "a", count: 65))","outcome":"sent"}]}"#,
    ])
    func anAckWithoutAWellFormedLeaseIdIs422(body: String) async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        let response = await harness.send(.post, "/v1/deliveries/ack", json: body)
        #expect(response.status == .unprocessableContent)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let pointers = (response.json["errors"]?.arrayValue ?? []).compactMap { $0["pointer"]?.stringValue }
        #expect(pointers == ["/acks/0/lease_id"])
    }
}
