import Dispatch
import Foundation
import HeraldCore
import HeraldHTTP
import HeraldObservability
import Synchronization
import Testing

@testable import HeraldService

@Suite("The delivery queue", .serialized)
struct DeliveriesQueueTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)

    /// One event queued for u1's APNs, FCM and Web Push devices.
    func prepared(ttl: Int = 86_400) async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: start)
        try await harness.category(PipelineHarness.chatCategory(ttlSeconds: ttl))
        try await harness.user("u1")
        try await harness.device("phone", user: "u1", platform: .apns)
        try await harness.device("tablet", user: "u1", platform: .fcm)
        try await harness.device("browser", user: "u1", platform: .webpush)
        _ = await harness.send(.post, "/v1/events", json: PipelineHarness.event(id: "q1", occurredAt: start))
        try await harness.decideAll()
        return harness
    }

    func claim(_ harness: PipelineHarness, _ body: String = "{}") async -> [HeraldHTTP.JSONValue] {
        let response = await harness.send(.post, "/v1/deliveries/claim", json: body)
        guard response.status == .ok, case .array(let deliveries)? = response.json["deliveries"] else { return [] }
        return deliveries
    }

    /// Acks a claimed delivery under the lease its claim returned.
    func ack(
        _ harness: PipelineHarness, _ delivery: HeraldHTTP.JSONValue?, _ outcome: String, extra: String = ""
    ) async -> HeraldHTTP.JSONValue {
        guard case .string(let id)? = delivery?["id"], case .string(let lease)? = delivery?["lease_id"] else {
            return .null
        }
        let body = #"{"acks":[{"id":"\#(id)","lease_id":"\#(lease)","outcome":"\#(outcome)"\#(extra)}]}"#
        return await harness.send(.post, "/v1/deliveries/ack", json: body).json
    }

    @Test func claimAckRetryAndLeaseExpiry() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let fcm = await claim(harness, #"{"platform":"fcm","limit":10}"#)
        #expect(fcm.map { $0["platform"] } == [.string("fcm")])
        let first = await claim(harness, #"{"limit":1,"lease_seconds":10}"#)
        let second = await claim(harness, #"{"limit":5,"lease_seconds":10}"#)
        #expect(first.count == 1 && second.count == 1)
        #expect(await claim(harness).isEmpty)

        let sent = await ack(harness, fcm.first, "sent")
        #expect(sent["results"]?.firstResult["state"] == .string("sent"))
        let retried = await ack(harness, first.first, "retry")
        #expect(retried["results"]?.firstResult["state"] == .string("queued"))
        #expect(await claim(harness).isEmpty)
        // A sent delivery cannot be acked again: its lease is over.
        #expect(await ack(harness, fcm.first, "retry")["results"]?.firstResult["status"] == .string("stale"))

        // The retry waits 5 s; the other lease runs out after 10 s and goes back to the queue.
        harness.clock.advance(5)
        let again = await claim(harness, #"{"lease_seconds":60}"#)
        #expect(again.map { $0["id"] } == [first.first?["id"]])
        #expect(again.first?["attempts"] == .int(2))
        harness.clock.advance(6)
        let rescued = await claim(harness)
        #expect(rescued.map { $0["id"] } == [second.first?["id"]])
        let expiries = ["apns", "fcm", "webpush"].compactMap {
            harness.context.metrics.counterValue("herald_delivery_lease_expiries_total", labels: [$0])
        }
        #expect(expiries.reduce(0, +) == 1)
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE state = 'leased'") == 2)
    }

    @Test func aDeadTokenDeactivatesTheDeviceAndDropsItsQueuedPushes() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        _ = await harness.send(.post, "/v1/events", json: PipelineHarness.event(id: "q2", occurredAt: start))
        try await harness.decideAll()
        let leased = await claim(harness, #"{"platform":"apns","limit":1}"#)
        let result = await ack(harness, leased.first, "dead_token", extra: #","detail":"Unregistered""#)
        #expect(result["results"]?.firstResult["state"] == .string("dead_token"))
        #expect(try await harness.count("SELECT count(*) FROM devices WHERE installation_id = 'phone' AND active") == 0)
        #expect(
            try await harness.count(
                "SELECT count(*) FROM deliveries WHERE installation_id = 'phone' AND state = 'dead_token'") == 2)
        #expect(await claim(harness, #"{"platform":"apns"}"#).isEmpty)
    }

    @Test func anExpiredDeliveryIsDroppedAndCountedInsteadOfLeased() async throws {
        let harness = try await prepared(ttl: 60)
        defer { harness.close() }
        harness.clock.advance(61)
        #expect(await claim(harness).isEmpty)
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE state = 'expired'") == 3)
        #expect(harness.context.metrics.counterValue("herald_deliveries_expired_total", labels: ["fcm"]) == 1)
    }

    @Test func concurrentClaimsGetDisjointDeliveries() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.device("phone", user: "u1", platform: .apns)
        try await harness.device("tablet", user: "u1", platform: .fcm)
        let events = (0..<60).map { PipelineHarness.event(id: "c\($0)", occurredAt: start) }
        _ = await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
        try await harness.decideAll()
        let claimed = ClaimedIds()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    while true {
                        let batch = await claim(harness, #"{"limit":7}"#)
                        if batch.isEmpty { return }
                        claimed.add(batch.compactMap { if case .string(let id)? = $0["id"] { id } else { nil } })
                    }
                }
            }
        }
        #expect(claimed.all.count == 120)
        #expect(Set(claimed.all).count == 120)
    }

    @Test func badClaimsAndAcksAre422() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        for body in [#"{"platform":"pager"}"#, #"{"limit":0}"#, #"{"lease_seconds":99999}"#] {
            #expect(await harness.send(.post, "/v1/deliveries/claim", json: body).status == .unprocessableContent)
        }
        for body in [
            #"{"acks":[]}"#, #"{"acks":[{"id":"x","lease_id":"l1","outcome":"maybe"}]}"#, "{}",
            #"{"acks":[{"id":"a\u0000b","lease_id":"l1","outcome":"sent"}]}"#,
        ] {
            #expect(await harness.send(.post, "/v1/deliveries/ack", json: body).status == .unprocessableContent)
        }
        let unknown = await harness.send(
            .post, "/v1/deliveries/ack", json: #"{"acks":[{"id":"nope","lease_id":"l1","outcome":"sent"}]}"#)
        #expect(unknown.json["results"]?.firstResult["status"] == .string("not_leased"))
    }
}

/// Ids claimed by concurrent consumers.
final class ClaimedIds: Sendable {
    private let ids = Mutex<[String]>([])

    func add(_ more: [String]) { ids.withLock { $0 += more } }

    var all: [String] { ids.withLock { $0 } }
}

extension HeraldHTTP.JSONValue {
    /// The first element of an array.
    var firstResult: HeraldHTTP.JSONValue {
        if case .array(let items) = self, let first = items.first { return first }
        return .null
    }
}
