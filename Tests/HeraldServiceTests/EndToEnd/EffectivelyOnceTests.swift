import Foundation
import HeraldPostgres
import Synchronization
import Testing

/// The real binary, killed with SIGKILL while it ingests and decides, and a PostgreSQL restart under load: every
/// accepted event is decided once, every push is queued once, and the counters add up.
@Suite("Effectively once", .serialized)
struct EffectivelyOnceTests {
    @Test func killingTheServiceRepeatedlyLosesAndDuplicatesNothing() async throws {
        let (conninfo, pool) = try await offCooperativePool {
            let conninfo = try TemporaryPostgres.freshDatabase()
            return (conninfo, try PostgresPool(conninfo: conninfo, size: 2))
        }
        defer { pool.close() }
        let workload = EffectivelyOnceWorkload(users: 200, events: 3_000, burstEvery: 10)
        try await HeraldUnderTest.with(conninfo: conninfo) { herald in
            try await Self.killRepeatedly(herald, workload: workload, pool: pool)
        }
    }

    static func killRepeatedly(
        _ herald: HeraldUnderTest, workload: EffectivelyOnceWorkload, pool: PostgresPool
    ) async throws {
        try await workload.prepare(on: pool)

        let batches = workload.batches(size: 100)
        let sent = Atomic<Int>(0)
        let retried = Atomic<Int>(0)
        let sender = Task {
            for batch in batches {
                let attempts = try await herald.postUntilStored(batch)
                retried.add(attempts - 1, ordering: .relaxed)
                sent.add(1, ordering: .relaxed)
            }
        }
        var kills = 0
        // Kill at different points: early ingest, mid-ingest, and once while only the workers are busy.
        for threshold in [2, 6, 10, 15, 20, 25, 28] {
            while sent.load(ordering: .relaxed) < threshold, !sender.isCancelled {
                try await Task.sleep(for: .milliseconds(5))
            }
            await herald.killHard()
            kills += 1
            try await herald.start()
        }
        try await sender.value
        await herald.killHard()
        kills += 1
        try await herald.start()
        try await workload.waitUntilSettled(on: pool)

        let tally = try await workload.tally(on: pool)
        print(
            "effectively once: \(kills) kills, \(tally.events) events, \(tally.decisions) decisions, "
                + "\(tally.eventDeliveries) event pushes, \(tally.digests) digests with \(tally.digestDeliveries) "
                + "pushes, \(retried.load(ordering: .relaxed)) batch retries")
        #expect(tally.events == 3_000)
        #expect(tally.decidedEvents == 3_000)
        #expect(tally.decisions == 3_000)
        #expect(tally.duplicatePushes == 0)
        #expect(tally.missingDeliveries == 0)
        #expect(tally.eventDeliveries == tally.expectedEventDeliveries)
        #expect(tally.eventDeliveries > 0)
        #expect(tally.digests > 0)
        #expect(tally.digestDeliveries == tally.expectedDigestDeliveries)
        #expect(tally.unreadTotal == tally.countedDecisions)
        #expect(tally.countedDecisions == 3_000)
        #expect(tally.usersWithWrongCount == 0)
    }

    @Test func theServiceRidesOutAPostgreSQLRestartUnderLoad() async throws {
        let folder = try RunningHerald.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cluster = EmbeddedPostgres(folder: folder + "/pg", options: .init(durable: false, maxConnections: 50))
        let conninfo = try await offCooperativePool { try cluster.start() }
        let pool = try await offCooperativePool { try PostgresPool(conninfo: conninfo, size: 2) }
        defer { pool.close() }
        let workload = EffectivelyOnceWorkload(users: 100, events: 1_000, burstEvery: 0)
        do {
            try await HeraldUnderTest.with(conninfo: conninfo) { herald in
                try await Self.restartDatabase(cluster, under: herald, workload: workload, pool: pool)
            }
        } catch {
            await offCooperativePool { try? cluster.stop() }
            throw error
        }
        await offCooperativePool { try? cluster.stop() }
    }

    static func restartDatabase(
        _ cluster: EmbeddedPostgres, under herald: HeraldUnderTest, workload: EffectivelyOnceWorkload,
        pool: PostgresPool
    ) async throws {
        try await workload.prepare(on: pool)

        let batches = workload.batches(size: 50)
        let sent = Atomic<Int>(0)
        let sender = Task {
            for batch in batches {
                try await herald.postUntilStored(batch)
                sent.add(1, ordering: .relaxed)
            }
        }
        while sent.load(ordering: .relaxed) < 10 { try await Task.sleep(for: .milliseconds(5)) }
        try await offCooperativePool {
            try cluster.stop()
            _ = try cluster.start()
        }
        try await sender.value
        try await workload.waitUntilSettled(on: pool)
        #expect(herald.isRunning)

        let tally = try await workload.tally(on: pool)
        #expect(tally.events == 1_000)
        #expect(tally.decidedEvents == 1_000)
        #expect(tally.decisions == 1_000)
        #expect(tally.duplicatePushes == 0)
        #expect(tally.missingDeliveries == 0)
        #expect(tally.eventDeliveries == tally.expectedEventDeliveries)
        #expect(tally.unreadTotal == 1_000)
        #expect(tally.usersWithWrongCount == 0)
        let ready = try await herald.request("GET", "/ready")
        #expect(ready.status == 200)
    }
}
