import Foundation
import HeraldPostgres

/// Watches events of one source become decided, from its own connection: an event counts once its decision,
/// delivery rows and state are committed (they commit together). The watcher listens to the queue's ready
/// channel, which every transaction that queued due deliveries notifies at its commit, and looks each time it is
/// woken (or after `interval` without a notification): the delay from `accepted_at` to the moment it sees an event
/// is the end-to-end latency, plus one look of its own.
enum BenchLatencyWatch {
    /// How long the watcher waits for a notification before it looks anyway, in seconds: a safety net, since each
    /// commit that queued due deliveries wakes it.
    static let interval = 0.05

    /// What a watch saw: each event's delay and how long each poll took, in milliseconds (a poll slower than the
    /// interval would add its own time to the delays), and what the watching cost: the CPU seconds of the thread
    /// that polled and of the server process that answered it, over `wallSeconds`. Only those two processes are
    /// counted, so autovacuum or the workers on the same server do not blur it.
    ///
    /// Each delay splits at the event's `decided_at`, the clock of the batch that decided it when that batch
    /// started: `waits` is accepted → batch started (the ingest's commit, the wake-up, a worker coming free),
    /// `batches` is batch started → seen (the claim, the reads, the deciding, the commit, the watcher's look).
    struct Watch {
        /// Events seen decided.
        var seen = 0
        /// Each event's delay, kept only when the watch was asked to (`keepingDelays`).
        var delays: [Double] = []
        var waits: [Double] = []
        var batches: [Double] = []
        var polls: [Double] = []
        var heraldSeconds = 0.0
        var postgresSeconds = 0.0
        var wallSeconds = 0.0
    }

    /// Looks at each notification of the ready channel, and after `interval` seconds without one, until
    /// `expected` events of `source`, numbered from `firstSeq` on, were seen decided or `timeout` passes. Without
    /// `keepingDelays` it only counts them, so that what it holds does not grow with the events.
    static func watch(
        _ service: BenchService, source: String, firstSeq: Int, expected: Int, interval: Double, timeout: Double,
        keepingDelays: Bool = true
    ) throws -> Watch {
        try service.database { connection in
            let backend = try BenchRepository.backendProcess(on: connection)
            let backendStart = BenchCPU.seconds(ofProcess: backend) ?? 0
            let threadStart = BenchCPU.threadSeconds()
            let started = ContinuousClock.now
            try connection.listen(DeliveryRepository.readyChannel)
            defer { try? BenchRepository.unlistenAll(on: connection) }
            var watch = try BenchRepository.withGenericPlans(on: connection) {
                try poll(
                    connection, source: source, firstSeq: firstSeq, expected: expected, interval: interval,
                    timeout: timeout, keepingDelays: keepingDelays)
            }
            watch.wallSeconds = max(BenchStatistics.seconds(since: started), 0.001)
            watch.heraldSeconds = BenchCPU.threadSeconds() - threadStart
            watch.postgresSeconds = (BenchCPU.seconds(ofProcess: backend) ?? backendStart) - backendStart
            return watch
        }
    }

    /// The watcher's own cost alone: it watches a source with no events for `seconds` on an idle server (so it is
    /// woken only by its `interval`); returns the cores of its thread and of its server process.
    static func ownCost(_ service: BenchService, seconds: Double) throws -> (herald: Double, postgres: Double) {
        let firstSeq = try service.database { try BenchRepository.nextEventSeq(on: $0) }
        let idle = try watch(
            service, source: "bench-watch-idle", firstSeq: firstSeq, expected: 1, interval: interval,
            timeout: seconds)
        return (idle.heraldSeconds / idle.wallSeconds, idle.postgresSeconds / idle.wallSeconds)
    }

    private static func poll(
        _ connection: PostgresConnection, source: String, firstSeq: Int, expected: Int, interval: Double,
        timeout: Double, keepingDelays: Bool
    ) throws -> Watch {
        // The seqs seen decided at or above `low`; every event below `low` was seen, and polls only read from there.
        var seenAbove: Set<Int> = []
        var watch = Watch()
        var low = firstSeq
        let start = ContinuousClock.now
        while watch.seen < expected, BenchStatistics.seconds(since: start) < timeout {
            let polled = ContinuousClock.now
            let rows = try BenchRepository.decidedEvents(source: source, from: low, on: connection)
            watch.polls.append(BenchStatistics.seconds(since: polled) * 1000)
            let observed = Date().timeIntervalSince1970
            for row in rows where seenAbove.insert(row.seq).inserted {
                watch.seen += 1
                guard keepingDelays else { continue }
                watch.delays.append((observed - row.acceptedAt) * 1000)
                watch.waits.append((row.decidedAt - row.acceptedAt) * 1000)
                watch.batches.append((observed - row.decidedAt) * 1000)
            }
            while seenAbove.remove(low) != nil { low += 1 }
            guard watch.seen < expected else { break }
            _ = try connection.notifications(waitingAtMost: .milliseconds(Int(interval * 1000)))
        }
        return watch
    }
}
