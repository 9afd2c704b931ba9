import Foundation
import HeraldPostgres

/// Watches events of one source become decided, from its own connection: an event counts once its decision,
/// delivery rows and state are committed (they commit together), so the delay from `accepted_at` to the moment
/// the watcher sees it is the end-to-end latency, give or take one polling interval.
enum BenchLatencyWatch {
    /// Polls every `interval` seconds until `expected` events of `source`, numbered from `firstSeq` on, were seen
    /// decided or `timeout` passes; returns each event's delay in milliseconds.
    static func delays(
        _ service: BenchService, source: String, firstSeq: Int, expected: Int, interval: Double, timeout: Double
    ) throws -> [Double] {
        try service.database { connection in
            try BenchRepository.withGenericPlans(on: connection) {
                try poll(
                    connection, source: source, firstSeq: firstSeq, expected: expected, interval: interval,
                    timeout: timeout)
            }
        }
    }

    /// The watcher's own cost: `seconds` of the idle server alone, then as long with the watcher polling it for a
    /// source that has no events. Returns the cores (herald and PostgreSQL together) each window used; the
    /// difference is what the polling costs.
    static func ownCost(_ service: BenchService, seconds: Double) throws -> (idle: Double, watching: Double) {
        let firstSeq = try service.database { try BenchRepository.nextEventSeq(on: $0) }
        func cores(_ usage: BenchCPU.Usage, over window: Double) -> Double {
            (usage.heraldSeconds + (usage.postgresSeconds ?? 0)) / max(window, 0.001)
        }
        var start = service.cpu.read()
        var started = ContinuousClock.now
        Thread.sleep(forTimeInterval: seconds)
        let idle = cores(service.cpu.usage(since: start, events: 0), over: BenchStatistics.seconds(since: started))
        start = service.cpu.read()
        started = ContinuousClock.now
        _ = try delays(
            service, source: "bench-watch-idle", firstSeq: firstSeq, expected: 1, interval: 0.005, timeout: seconds)
        let watching = cores(
            service.cpu.usage(since: start, events: 0), over: BenchStatistics.seconds(since: started))
        return (idle, watching)
    }

    private static func poll(
        _ connection: PostgresConnection, source: String, firstSeq: Int, expected: Int, interval: Double,
        timeout: Double
    ) throws -> [Double] {
        var seen: Set<Int> = []
        var delays: [Double] = []
        // Every event below `low` was seen decided; polls only read from there.
        var low = firstSeq
        let start = ContinuousClock.now
        while delays.count < expected, BenchStatistics.seconds(since: start) < timeout {
            let rows = try BenchRepository.decidedEvents(source: source, from: low, on: connection)
            let observed = Date().timeIntervalSince1970
            for row in rows where seen.insert(row.seq).inserted {
                delays.append((observed - row.acceptedAt) * 1000)
            }
            while seen.remove(low) != nil { low += 1 }
            Thread.sleep(forTimeInterval: interval)
        }
        return delays
    }
}
