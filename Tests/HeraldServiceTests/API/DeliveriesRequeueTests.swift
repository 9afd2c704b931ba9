import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

/// A delivery that comes back from a lease (the lease ran out, a retry ack, the relay's release) goes back to the
/// queue only if it would be queued now: not when its device was lost or moved while it was out, nor when a newer
/// push of its coalesce key came meanwhile.
@Suite("Deliveries that come back from a lease", .serialized)
struct DeliveriesRequeueTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)
    let lease = DeliveriesLeaseTests()

    /// One event queued for u1's phone (APNs), and a second user.
    func prepared() async throws -> PipelineHarness {
        let harness = try await lease.prepared()
        try await harness.user("u2")
        return harness
    }

    func claimAll(_ harness: PipelineHarness, leaseSeconds: Int = 60) async -> [String] {
        let response = await harness.send(
            .post, "/v1/deliveries/claim", json: #"{"platform":"apns","limit":10,"lease_seconds":\#(leaseSeconds)}"#)
        #expect(response.status == .ok)
        guard case .array(let deliveries)? = response.json["deliveries"] else { return [] }
        return deliveries.compactMap { $0["id"]?.stringValue }
    }

    func row(_ harness: PipelineHarness, _ id: String) async throws -> (state: String, detail: String?, finished: Date?)
    {
        let row = try await harness.sql("SELECT state, detail, finished_at FROM deliveries WHERE id = $1", [id])
            .single()
        return (
            try row.string("state"), try row.decode(String?.self, "detail"), try row.decode(Date?.self, "finished_at")
        )
    }

    @Test func aRetryForADeviceMovedToAnotherUserEndsInsteadOfGoingBack() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let claimed = try #require(await lease.claimOne(harness, leaseSeconds: 60))
        _ = try await harness.sql("UPDATE devices SET user_id = 'u2' WHERE installation_id = 'phone'")
        let result = await lease.ack(harness, id: claimed.id, lease: claimed.lease, "retry")
        #expect(result["status"] == .string("ok"))
        #expect(result["state"] == .string("expired"))
        let ended = try await row(harness, claimed.id)
        #expect(ended.state == "expired")
        #expect(ended.detail?.hasPrefix("withdrawn") == true)
        #expect(ended.finished == harness.clock.now)
        harness.clock.advance(7_200)
        #expect(await claimAll(harness).isEmpty)
    }

    @Test func aRetryForADeviceStillItsUsersGoesBack() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let claimed = try #require(await lease.claimOne(harness, leaseSeconds: 60))
        #expect(await lease.ack(harness, id: claimed.id, lease: claimed.lease, "retry")["state"] == .string("queued"))
        let back = try await row(harness, claimed.id)
        #expect(back.state == "queued")
        #expect(back.finished == nil)
        harness.clock.advance(60)
        #expect(await claimAll(harness) == [claimed.id])
    }

    @Test func anExpiredLeaseOfADeletedDeviceEnds() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let claimed = try #require(await lease.claimOne(harness, leaseSeconds: 1))
        _ = try await harness.sql("DELETE FROM devices WHERE installation_id = 'phone'")
        harness.clock.advance(2)
        #expect(await claimAll(harness).isEmpty)
        let ended = try await row(harness, claimed.id)
        #expect(ended.state == "expired")
        #expect(ended.detail?.hasPrefix("withdrawn") == true)
        #expect(ended.finished == harness.clock.now)
    }

    @Test func aRelayReleaseForADeactivatedDeviceEnds() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let claimed = try #require(await lease.claimOne(harness, leaseSeconds: 60))
        _ = try await harness.sql(
            "UPDATE devices SET active = false, deactivated_at = $1 WHERE installation_id = 'phone'",
            [harness.clock.now])
        let now = harness.clock.now
        try await harness.database { connection in
            try RelayRepository.settle(
                relayed: [], unacknowledged: [claimed.id], leaseId: claimed.lease, now: now, on: connection)
        }
        let ended = try await row(harness, claimed.id)
        #expect(ended.state == "expired")
        #expect(ended.finished == now)
    }

    /// Gives the queued delivery a coalesce key, and returns a copy of it under another id, `later` seconds newer,
    /// `daysLater` days further in the partitions, queued.
    func keyed(_ harness: PipelineHarness, _ id: String, copy: String, later: Double, daysLater: Int) async throws {
        _ = try await harness.sql("UPDATE deliveries SET coalesce_key = 'badge:phone' WHERE id = $1", [id])
        let day = try await harness.count("SELECT stored_day FROM deliveries WHERE id = $1", [id])
        _ = try await harness.sql("SELECT herald_partitions_ensure($1::integer, $1::integer + 2)", [day])
        _ = try await harness.sql(
            """
            INSERT INTO deliveries (id, notification_id, event_source, event_id, user_id, installation_id, platform,
                                    environment, token, kind, headers, body, collapse_id, coalesce_key, priority,
                                    created_at, available_at, expires_at, stored_day)
            SELECT $2, notification_id, event_source, event_id, user_id, installation_id, platform, environment,
                   token, kind, headers, body, collapse_id, 'badge:phone', priority,
                   created_at + make_interval(secs => $3::double precision), available_at, expires_at,
                   stored_day + $4::integer
            FROM deliveries WHERE id = $1
            """, [id, copy, later, daysLater])
    }

    /// A lease ran out while a newer push of the same key was queued: on the same day this used to break the key's
    /// unique index and fail every claim; on another day both went out. The outdated one ends, the newer is sent.
    @Test(arguments: [0, 1])
    func aReturningPushWithANewerOneOfItsKeyEnds(daysLater: Int) async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let first = try #require(await lease.claimOne(harness, leaseSeconds: 1))
        try await keyed(harness, first.id, copy: "newer-\(daysLater)", later: 1, daysLater: daysLater)
        harness.clock.advance(2)
        #expect(await claimAll(harness) == ["newer-\(daysLater)"])
        let ended = try await row(harness, first.id)
        #expect(ended.state == "expired")
        #expect(ended.detail?.hasPrefix("replaced") == true)
        harness.clock.advance(120)
        #expect(await claimAll(harness) == ["newer-\(daysLater)"])
    }

    /// Two pushes of one key were out and both leases ran out: the newer goes back, the older ends, whichever the
    /// statement meets first.
    @Test(arguments: [1.0, -1.0])
    func ofTwoOfOneKeyComingBackTogetherTheNewerStays(later: Double) async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let first = try #require(await lease.claimOne(harness, leaseSeconds: 1))
        try await keyed(harness, first.id, copy: "other", later: later, daysLater: 0)
        #expect(await claimAll(harness, leaseSeconds: 1) == ["other"])
        harness.clock.advance(2)
        let (newer, older) = later > 0 ? ("other", first.id) : (first.id, "other")
        #expect(await claimAll(harness) == [newer])
        #expect(try await row(harness, older).state == "expired")
        #expect(try await row(harness, newer).state == "leased")
    }
}
