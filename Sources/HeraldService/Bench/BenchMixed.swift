import Foundation
import HeraldObservability
import HeraldPostgres

/// The mixed phase, as `herald serve` runs: HTTP ingest as fast as it goes (batches of 100 from 4 connections, as
/// in the ingest phase) while the pipeline workers decide, until `events` events were decided. Reports decided
/// events per second end to end, the events still waiting at that moment (the backlog: ingest running ahead of the
/// workers) and the CPU per decided event, which includes the ingest of that backlog.
enum BenchMixed {
    /// What one run did.
    struct Figures {
        var decided: Int
        var seconds: Double
        var backlog: Int
        /// Events decided per worker transaction that claimed work, over the phase: how far the workers' batches
        /// fell short of full ones while chasing ingest.
        var eventsPerBatch: Double
        /// Whether every prepared batch was posted before the target: ingest ran ahead by the whole reserve.
        var ranOut: Bool
        var cpu: BenchCPU.Usage
    }

    private struct Lane: Sendable {
        var posted = 0
        var seconds = 0.0
        var backlog = 0
        var eventsPerBatch = 0.0
        var cpu: BenchCPU.Usage?
    }

    /// Runs the phase with the workers already running and nothing pending; afterwards waits (untimed) until the
    /// backlog is decided too.
    static func run(
        _ service: BenchService, population: BenchPopulation, source: String, events: Int
    ) throws -> Figures {
        try service.waitForDrain()
        // Four times the target is prepared: ingest stops there if it is that far ahead of the workers.
        let reserve = events * 4
        let batches = stride(from: 0, to: reserve, by: 100).map {
            population.eventBatch(source: source, $0..<min($0 + 100, reserve))
        }
        let client = BenchClient(port: service.server.port ?? 0, adminKey: service.adminKey)
        let metrics = service.context.metrics
        let batchesName = "herald_pipeline_batches_total"
        let before = service.eventsDecided
        let batchesBefore = metrics.counterValue(batchesName) ?? 0
        let stop = LockedValue(false)
        let cpuStart = service.cpu.read()
        let start = ContinuousClock.now
        let lanes = try BenchThreads.run(5) { lane -> Lane in
            if lane < 4 {
                return Lane(posted: try client.post(batches, lane: lane, of: 4, until: { stop.withLock { $0 } }))
            }
            // The workers count what they decided in process: polling that costs the database nothing.
            defer { stop.withLock { $0 = true } }
            try service.waitForDecided(events, since: before)
            let seconds = BenchStatistics.seconds(since: start)
            let cpu = service.cpu.usage(since: cpuStart, events: events)
            let decided = service.eventsDecided - before
            let batches = (metrics.counterValue(batchesName) ?? 0) - batchesBefore
            let backlog = try service.database { try BenchRepository.pendingEventCount(on: $0) }
            return Lane(
                seconds: seconds, backlog: backlog, eventsPerBatch: batches > 0 ? decided / batches : 0, cpu: cpu)
        }
        let posted = lanes[0..<4].map(\.posted).reduce(0, +)
        try service.waitForDrain()
        return Figures(
            decided: events, seconds: lanes[4].seconds, backlog: lanes[4].backlog,
            eventsPerBatch: lanes[4].eventsPerBatch, ranOut: posted >= batches.count, cpu: lanes[4].cpu!)
    }
}
