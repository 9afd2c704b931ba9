import Foundation
import HeraldPostgres
import Testing

/// Three `herald serve` processes on one PostgreSQL with no leader: events posted to any of them under load, one
/// killed with SIGKILL mid-load, and still every accepted event decided once, every push queued once, no collapse
/// group split, every timer fired once.
@Suite("Many instances", .serialized)
struct MultiInstanceTests {
    @Test func threeInstancesOnOneDatabaseDecideEachEventOnceThroughAKill() async throws {
        let (conninfo, pool) = try await offCooperativePool {
            let conninfo = try TemporaryPostgres.freshDatabase()
            return (conninfo, try PostgresPool(conninfo: conninfo, size: 2))
        }
        defer { pool.close() }
        let workload = EffectivelyOnceWorkload(users: 200, events: 3_000, burstEvery: 10)
        // Replicas share their configuration, the admin key included (a Secret in Kubernetes).
        let key = "hk_many_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let instances = try (0..<3).map { _ in try HeraldUnderTest(conninfo: conninfo, adminKey: key) }
        do {
            // All three start together on an empty database, as replicas do: one migrates, the others wait.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for herald in instances { group.addTask { try await herald.start(workers: 2) } }
                try await group.waitForAll()
            }
            try await workload.prepare(on: pool)
            try await Self.runLoad(workload, on: instances, pool: pool)
        } catch {
            for herald in instances { await herald.stop() }
            throw error
        }
        for herald in instances { await herald.stop() }
    }

    static func runLoad(
        _ workload: EffectivelyOnceWorkload, on instances: [HeraldUnderTest], pool: PostgresPool
    )
        async throws
    {
        let batches = workload.batches(size: 100)
        var failovers = 0
        let clock = ContinuousClock()
        let started = clock.now
        // One sender (concurrent URLSession requests can stall on Linux) spreading batches over the instances
        // in turn; mid-load the second instance dies without any shutdown code running.
        for (index, batch) in batches.enumerated() {
            if index == batches.count / 2 { await instances[1].killHard() }
            failovers += try await Self.post(batch, preferring: index % 3, instances: instances)
        }
        try await workload.waitUntilSettled(on: pool)
        let elapsed = clock.now - started

        let tally = try await workload.tally(on: pool)
        print(
            "many instances: 3 instances, 1 SIGKILL, \(tally.events) events, \(tally.decisions) decisions, "
                + "\(tally.eventDeliveries) event pushes, \(tally.digests) digests with \(tally.digestDeliveries) "
                + "pushes, \(failovers) failovers, settled in \(elapsed)")
        #expect(instances[0].isRunning && instances[2].isRunning)
        #expect(!instances[1].isRunning)
        #expect(tally.events == workload.events)
        #expect(tally.decidedEvents == workload.events)
        #expect(tally.decisions == workload.events)
        #expect(tally.duplicatePushes == 0)
        #expect(tally.missingDeliveries == 0)
        #expect(tally.eventDeliveries == tally.expectedEventDeliveries)
        #expect(tally.eventDeliveries > 0)
        #expect(tally.digests > 0)
        #expect(tally.digestDeliveries == tally.expectedDigestDeliveries)
        #expect(tally.unreadTotal == tally.countedDecisions)
        #expect(tally.usersWithWrongCount == 0)
        let collapse = try await Self.collapseAccounting(on: pool)
        print(
            "many instances: \(collapse.collapsed) collapsed decisions, \(collapse.folded) folded into and "
                + "\(collapse.summarised) summarised in digests")
        #expect(collapse.collapsed > 0)
        // Every collapsed decision is folded into exactly one digest; a digest adds at most its burst's first event
        // (none when the burst began held back by a rate limit).
        #expect(collapse.folded == collapse.collapsed)
        #expect(collapse.summarised >= collapse.collapsed && collapse.summarised <= collapse.collapsed + tally.digests)
    }

    /// Posts to the preferred instance, and to the others in turn while it refuses connections; returns how many
    /// times it moved on.
    static func post(_ batch: String, preferring lane: Int, instances: [HeraldUnderTest]) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(300)
        var attempt = 0
        while ContinuousClock.now < deadline {
            let herald = instances[(lane + attempt) % instances.count]
            if let reply = try? await herald.request("POST", "/v1/events", json: batch) {
                if reply.status == 202 || reply.status == 200 { return attempt }
                if reply.status != 503 && reply.status != 500 {
                    throw RunningHerald.StartFailure(message: "ingest answered \(reply.status): \(reply.body)")
                }
            } else {
                attempt += 1
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw RunningHerald.StartFailure(message: "a batch was never stored")
    }

    /// Collapsed decisions and the events the digests say they summarised: a group split between two instances
    /// (or a lost update of its state) makes them disagree.
    static func collapseAccounting(
        on pool: PostgresPool
    ) async throws -> (
        collapsed: Int, summarised: Int, folded: Int
    ) {
        try await pool.withConnection { connection in
            let row = try connection.query(
                Query(
                    unsafeSQL: """
                        SELECT (SELECT count(*) FROM decisions WHERE outcome = 'collapsed') AS collapsed,
                               (SELECT coalesce(sum(event_count), 0) FROM digests) AS summarised,
                               (SELECT coalesce(sum(folded), 0) FROM digests) AS folded
                        """)
            ).single()
            return (try row.int(0), try row.int(1), try row.int(2))
        }
    }
}
