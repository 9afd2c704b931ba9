import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Testing

/// Three `herald serve` replicas running one campaign together, one of them killed with SIGKILL mid-wave: each batch
/// is taken by whichever replica claims the wave row (SKIP LOCKED) and moves its cursor, so every user gets the
/// campaign exactly once.
@Suite("Campaign waves on many instances", .serialized)
struct MultiInstanceCampaignTests {
    static let usersPerZone = 1_500
    static let zones = ["UTC", "Europe/Paris", "Asia/Kolkata", "Asia/Kathmandu"]

    @Test func threeReplicasRunTheWavesOnceThroughAKill() async throws {
        let (conninfo, pool) = try await offCooperativePool {
            let conninfo = try TemporaryPostgres.freshDatabase()
            return (conninfo, try PostgresPool(conninfo: conninfo, size: 2))
        }
        defer { pool.close() }
        let key = "hk_waves_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let instances = try (0..<3).map { _ in try CampaignHerald(conninfo: conninfo, adminKey: key) }
        defer { for herald in instances { herald.stop() } }
        for herald in instances { try await herald.start() }
        try await pool.withConnection { connection in
            _ = try CategoryRepository.create(
                PipelineHarness.chatCategory(), actorKeyId: nil, now: Date(), on: connection)
            for (index, zone) in Self.zones.enumerated() {
                try connection.execute(
                    Query(
                        unsafeSQL: """
                            INSERT INTO users (id, locale, time_zone, created_at, updated_at)
                            SELECT 'z' || $1 || '-' || lpad(g::text, 5, '0'), 'en', $2, $4::timestamptz, $4::timestamptz
                            FROM generate_series(1, $3) g
                            """), [index, zone, Self.usersPerZone, Date()])
            }
            try connection.execute(Query(unsafeSQL: CampaignTestSupport.devicesSQL), [Date()])
        }
        // Midnight of today's UTC date has passed in every one of these zones: with send_now they go out together
        // at once, batch after batch, from whichever replica claims the wave next.
        let today = String(ISO8601.format(Date()).prefix(10))
        let created = try await instances[0].request(
            "POST", "/v1/campaigns",
            json: CampaignTestSupport.body(id: "shared", date: today, time: "00:00", late: "send_now"))
        #expect(created.status == 201)
        let total = Self.usersPerZone * Self.zones.count

        func count(_ sql: String) async throws -> Int {
            try await pool.withConnection { try $0.query(Query(unsafeSQL: sql)).single().int(0) }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while try await count("SELECT coalesce(sum(enqueued), 0) FROM campaign_waves") < total / 3,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        await instances[1].killHard()
        let killedAt = try await count("SELECT coalesce(sum(enqueued), 0) FROM campaign_waves")

        _ = try await CampaignTestSupport.waitUntilSettled(pool, deadline: .seconds(180))
        let recipients = try await count("SELECT count(*) FROM campaign_recipients")
        let decided = try await count(
            "SELECT count(*) FROM campaign_events ce JOIN decisions d ON d.event_seq = ce.event_seq")
        let decidedUsers = try await count(
            "SELECT count(DISTINCT d.user_id) FROM campaign_events ce JOIN decisions d ON d.event_seq = ce.event_seq")
        let pushes = try await count("SELECT count(*) FROM deliveries")
        let pushedUsers = try await count("SELECT count(DISTINCT user_id) FROM deliveries")
        let waves = try await count("SELECT count(*) FROM campaign_waves")
        let unfinished = try await count("SELECT count(*) FROM campaign_waves WHERE state <> 'done'")
        print(
            "campaign on 3 replicas: \(waves) waves, killed one at \(killedAt) of \(total) enqueued; "
                + "\(recipients) recipients, \(decided) decisions for \(decidedUsers) users, \(pushes) pushes to "
                + "\(pushedUsers) users")
        #expect(killedAt < total, "the kill came after the campaign was fully enqueued")
        #expect(waves > 0 && unfinished == 0)
        #expect(recipients == total)
        #expect(decided == total && decidedUsers == total)
        #expect(pushes == total && pushedUsers == total)
    }
}
