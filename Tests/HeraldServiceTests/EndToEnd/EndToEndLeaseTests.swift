import Foundation
import HeraldCore
import HeraldHTTP
import Testing

/// The stale-ack rule through the real `herald` binary: a consumer whose lease ran out changes nothing.
@Suite("herald binary end to end: delivery leases", .serialized)
struct EndToEndLeaseTests {
    /// A claimed delivery and the lease its claim returned.
    struct Lease: Equatable {
        var id: String
        var lease: String
    }

    func json(_ reply: RunningHerald.Reply) -> HeraldHTTP.JSONValue {
        (try? HeraldHTTP.JSONValue(parsing: Array(reply.body.utf8))) ?? .null
    }

    /// Claims one APNs delivery, polling until one is due or `deadline` passes.
    func claim(_ herald: RunningHerald, leaseSeconds: Int, deadline: Duration) async throws -> Lease? {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while clock.now < end {
            let reply = try await herald.post(
                "/v1/deliveries/claim", json: #"{"platform":"apns","limit":1,"lease_seconds":\#(leaseSeconds)}"#,
                key: herald.adminKey)
            if let first = json(reply)["deliveries"]?.arrayValue.first, let id = first["id"]?.stringValue,
                let lease = first["lease_id"]?.stringValue
            {
                return Lease(id: id, lease: lease)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    func ack(_ herald: RunningHerald, _ lease: Lease, _ outcome: String) async throws -> HeraldHTTP.JSONValue {
        let body = #"{"acks":[{"id":"\#(lease.id)","lease_id":"\#(lease.lease)","outcome":"\#(outcome)"}]}"#
        let reply = try await herald.post("/v1/deliveries/ack", json: body, key: herald.adminKey)
        return json(reply)["results"]?.arrayValue.first ?? .null
    }

    @Test("a late dead_token ack from an expired lease answers stale and leaves the device and the new lease alone")
    func lateAckIsStale() async throws {
        let herald = try RunningHerald.start()
        defer { herald.kill() }
        _ = try await herald.waitUntilReady()
        let key = herald.adminKey
        let category = #"{"id":"chat.message","name":"Chat","templates":{"en":{"body":"{text}"}}}"#
        let token = String(repeating: "ab", count: 32)
        let device = #"{"user_id":"u1","platform":"apns","token":"\#(token)","app_id":"com.example.chat"}"#
        let event = #"""
            {"source":"chat","id":"e2e-lease","category":"chat.message",
             "occurred_at":"\#(ISO8601.format(Date()))","recipients":["u1"],"data":{"text":"hi"}}
            """#
        for (method, path, body) in [
            ("POST", "/v1/categories", category), ("PUT", "/v1/users/u1", #"{"locale":"en"}"#),
            ("PUT", "/v1/devices/phone", device), ("POST", "/v1/events", event),
        ] {
            let reply = try await herald.request(method, path, json: body, key: key)
            #expect(reply.status / 100 == 2, "\(method) \(path): \(reply.body)")
        }

        let a = try #require(try await claim(herald, leaseSeconds: 1, deadline: .seconds(30)))
        // Consumer A's one-second lease runs out; B's claim takes the row back and leases it anew.
        let b = try #require(try await claim(herald, leaseSeconds: 60, deadline: .seconds(10)))
        #expect(b.id == a.id)
        #expect(b.lease != a.lease)

        let late = try await ack(herald, a, "dead_token")
        #expect(late["status"]?.stringValue == "stale")
        let phone = json(try await herald.get("/v1/devices/phone", key: key))
        #expect(phone["active"] == .bool(true))
        let sent = try await ack(herald, b, "sent")
        #expect(sent["status"]?.stringValue == "ok")
        #expect(sent["state"]?.stringValue == "sent")
    }
}
