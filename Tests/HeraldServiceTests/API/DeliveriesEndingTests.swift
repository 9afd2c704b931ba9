import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

/// How a delivery's handing out ends: a dead token takes only the pushes to that token with it, and a lease that
/// keeps running out ends after the last attempt.
@Suite("Delivery endings", .serialized)
struct DeliveriesEndingTests {
    let leases = DeliveriesLeaseTests()

    @Test("A dead old token leaves the push queued to the token the device registered since")
    func deadOldTokenKeepsThePushToTheNewToken() async throws {
        let harness = try await leases.prepared()
        defer { harness.close() }
        let first = try #require(await leases.claimOne(harness, leaseSeconds: 60))
        harness.clock.advance(5)
        _ = try await harness.sql(
            "UPDATE devices SET token = 'new-token', last_registered_at = $1 WHERE installation_id = 'phone'",
            [harness.clock.now])
        _ = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "l2", occurredAt: harness.clock.now))
        try await harness.decideAll()
        harness.clock.advance(1)
        #expect(
            await leases.ack(harness, id: first.id, lease: first.lease, "dead_token")["state"] == .string("dead_token"))
        let rows = try await harness.sql("SELECT token, state FROM deliveries ORDER BY created_at")
        #expect(try rows.map { try $0.string(1) } == ["dead_token", "queued"])
        #expect(try rows.last?.string(0) == "new-token")
        #expect(try await harness.count("SELECT count(*) FROM devices WHERE installation_id = 'phone' AND active") == 1)
    }

    @Test("A dead token takes the other pushes queued to it")
    func deadTokenTakesTheOtherPushesToIt() async throws {
        let harness = try await leases.prepared()
        defer { harness.close() }
        _ = await harness.send(.post, "/v1/events", json: PipelineHarness.event(id: "l2", occurredAt: leases.start))
        try await harness.decideAll()
        let first = try #require(await leases.claimOne(harness, leaseSeconds: 60))
        #expect(
            await leases.ack(harness, id: first.id, lease: first.lease, "dead_token")["state"] == .string("dead_token"))
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE state = 'dead_token'") == 2)
    }

    @Test("A relay publish the stream did not acknowledge gives its attempt back")
    func anUnacknowledgedRelayPublishIsNoAttempt() async throws {
        let harness = try await leases.prepared()
        defer { harness.close() }
        for _ in 0..<(DeliveryRepository.maxAttempts + 2) {
            let claimed = try #require(await leases.claimOne(harness, leaseSeconds: 60))
            let now = harness.clock.now
            try await harness.database { connection in
                try RelayRepository.settle(
                    relayed: [], unacknowledged: [claimed.id], leaseId: claimed.lease, now: now, on: connection)
            }
        }
        let claimed = try #require(await leases.claimOne(harness, leaseSeconds: 1))
        harness.clock.advance(2)
        #expect(await leases.claimOne(harness, leaseSeconds: 60) != nil)
        #expect(try await harness.count("SELECT attempts FROM deliveries WHERE id = $1", [claimed.id]) == 2)
    }

    @Test("A lease that keeps running out ends the delivery after the last attempt")
    func leaseExpiryStopsAfterTheLastAttempt() async throws {
        let harness = try await leases.prepared()
        defer { harness.close() }
        var claims = 0
        while await leases.claimOne(harness, leaseSeconds: 1) != nil {
            claims += 1
            harness.clock.advance(2)
            if claims > DeliveryRepository.maxAttempts { break }
        }
        #expect(claims == DeliveryRepository.maxAttempts)
        let row = try await harness.sql("SELECT state, detail, attempts FROM deliveries").single()
        #expect(try row.string(0) == "failed")
        #expect(try row.string(1) == "lease expired on the last attempt")
        #expect(try row.int(2) == DeliveryRepository.maxAttempts)
    }

    /// Registers `installation` for `user` through the devices API with the APNs token `phone` was given.
    func register(_ installation: String, user: String, _ harness: PipelineHarness) async -> HTTPStatus {
        let token = PipelineHarness.token("phone", platform: .apns)
        return await harness.send(
            .put, "/v1/devices/\(installation)",
            json: #"{"user_id":"\#(user)","platform":"apns","token":"\#(token)","app_id":"com.example.app"}"#
        ).status
    }

    @Test("A device that registered again with the same token after the claim outlives the lease's dead token")
    func aRegistrationAfterTheClaimOutlivesItsDeadToken() async throws {
        let harness = try await leases.prepared()
        defer { harness.close() }
        _ = await harness.send(.post, "/v1/events", json: PipelineHarness.event(id: "l2", occurredAt: leases.start))
        try await harness.decideAll()
        let first = try #require(await leases.claimOne(harness, leaseSeconds: 60))
        harness.clock.advance(2)
        #expect(await register("phone", user: "u1", harness) == .ok)
        harness.clock.advance(2)
        #expect(
            await leases.ack(harness, id: first.id, lease: first.lease, "dead_token")["state"] == .string("dead_token"))
        #expect(try await harness.count("SELECT count(*) FROM devices WHERE installation_id = 'phone' AND active") == 1)
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE state = 'queued'") == 1)
    }

    @Test("A dead token concerns the device the push went to, not one of another user that took the token since")
    func aDeadTokenSparesTheDeviceThatTookTheTokenSince() async throws {
        let harness = try await leases.prepared()
        defer { harness.close() }
        let first = try #require(await leases.claimOne(harness, leaseSeconds: 60))
        try await harness.user("u2")
        harness.clock.advance(2)
        #expect(await register("tablet", user: "u2", harness) == .created)
        _ = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "l2", users: ["u2"], occurredAt: harness.clock.now))
        try await harness.decideAll()
        harness.clock.advance(2)
        #expect(
            await leases.ack(harness, id: first.id, lease: first.lease, "dead_token")["state"] == .string("dead_token"))
        #expect(
            try await harness.count("SELECT count(*) FROM devices WHERE installation_id = 'tablet' AND active") == 1)
        #expect(
            try await harness.count(
                "SELECT count(*) FROM deliveries WHERE installation_id = 'tablet' AND state = 'queued'") == 1)
    }
}
