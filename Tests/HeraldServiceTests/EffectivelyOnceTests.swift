import Foundation
import HeraldPostgres
import Synchronization
import Testing

/// The real binary, killed with SIGKILL while it ingests and decides, and a PostgreSQL restart under load: every
/// accepted event is decided once, every push is queued once, and the counters add up.
@Suite("Effectively once", .serialized)
struct EffectivelyOnceTests {
    @Test func killingTheServiceRepeatedlyLosesAndDuplicatesNothing() async throws {
        let conninfo = try TemporaryPostgres.freshDatabase()
        let pool = try PostgresPool(conninfo: conninfo, size: 2)
        defer { pool.close() }
        let workload = EffectivelyOnceWorkload(users: 200, events: 4_000, burstEvery: 10)
        let herald = try HeraldUnderTest(conninfo: conninfo)
        defer { herald.stop() }
        try await herald.start()
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
        for threshold in [3, 8, 14, 20, 27, 33, 38] {
            while sent.load(ordering: .relaxed) < threshold, !sender.isCancelled {
                try await Task.sleep(for: .milliseconds(5))
            }
            herald.killHard()
            kills += 1
            try await herald.start()
        }
        try await sender.value
        herald.killHard()
        kills += 1
        try await herald.start()
        try await workload.waitUntilSettled(on: pool)

        let tally = try await workload.tally(on: pool)
        print(
            "effectively once: \(kills) kills, \(tally.events) events, \(tally.decisions) decisions, "
                + "\(tally.eventDeliveries) event pushes, \(tally.digests) digests with \(tally.digestDeliveries) "
                + "pushes, \(retried.load(ordering: .relaxed)) batch retries")
        #expect(tally.events == 4_000)
        #expect(tally.decidedEvents == 4_000)
        #expect(tally.decisions == 4_000)
        #expect(tally.duplicatePushes == 0)
        #expect(tally.missingDeliveries == 0)
        #expect(tally.eventDeliveries == tally.expectedEventDeliveries)
        #expect(tally.eventDeliveries > 0)
        #expect(tally.digests > 0)
        #expect(tally.digestDeliveries == tally.expectedDigestDeliveries)
        #expect(tally.unreadTotal == tally.countedDecisions)
        #expect(tally.countedDecisions == 4_000)
        #expect(tally.usersWithWrongCount == 0)
    }

    @Test func theServiceRidesOutAPostgreSQLRestartUnderLoad() async throws {
        let folder = try RunningHerald.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cluster = EmbeddedPostgres(folder: folder + "/pg", options: .init(durable: false, maxConnections: 50))
        let conninfo = try await Self.offPool { try cluster.start() }
        defer { try? cluster.stop() }
        let pool = try PostgresPool(conninfo: conninfo, size: 2)
        defer { pool.close() }
        let workload = EffectivelyOnceWorkload(users: 100, events: 1_500, burstEvery: 0)
        let herald = try HeraldUnderTest(conninfo: conninfo)
        defer { herald.stop() }
        try await herald.start()
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
        try await Self.offPool {
            try cluster.stop()
            _ = try cluster.start()
        }
        try await sender.value
        try await workload.waitUntilSettled(on: pool)
        #expect(herald.isRunning)

        let tally = try await workload.tally(on: pool)
        #expect(tally.events == 1_500)
        #expect(tally.decidedEvents == 1_500)
        #expect(tally.decisions == 1_500)
        #expect(tally.duplicatePushes == 0)
        #expect(tally.missingDeliveries == 0)
        #expect(tally.eventDeliveries == tally.expectedEventDeliveries)
        #expect(tally.unreadTotal == 1_500)
        #expect(tally.usersWithWrongCount == 0)
        let ready = try await herald.request("GET", "/ready")
        #expect(ready.status == 200)
    }

    /// Runs blocking work (pg_ctl) on a plain thread, not on the cooperative pool.
    static func offPool<R: Sendable>(_ work: @escaping @Sendable () throws -> R) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
