import Foundation
import HeraldPostgres

/// The raw PostgreSQL cost of the latency phase's writes: at 1,000 events/s, every 10 ms one batch of 10 events is
/// stored through ingest's statement, in its own transaction as a POST commits, and then its events' pipeline rows
/// are written as the limit phase writes them, in one transaction as a worker's batch commits. No HTTP, no reads,
/// no deciding. Its CPU per event over the limit phase's is what batches of 10 cost over full batches, for writing
/// alone: a floor under the latency phase's own ratio.
enum BenchLatencyLimit {
    /// What one run wrote, how long it took and the CPU it cost.
    struct Figures {
        var events: Int
        var deliveries: Int
        var seconds: Double
        var cpu: BenchCPU.Usage
    }

    /// Writes `seconds` × 1,000 events of `source` at that pace from one thread, with no worker running.
    static func run(
        _ service: BenchService, population: BenchPopulation, source: String, seconds: Int, users: Int
    ) throws -> Figures {
        let count = seconds * 1_000
        let batches = try stride(from: 0, to: count, by: 10).map {
            try BenchIngestLimit.rows(population.eventBatch(source: source, $0..<($0 + 10)))
        }
        let cpuStart = service.cpu.read()
        let start = ContinuousClock.now
        let paced = Date()
        var deliveries = 0
        for (index, rows) in batches.enumerated() {
            let due = paced.addingTimeInterval(Double(index) * 0.01)
            if due > Date() { Thread.sleep(until: due) }
            deliveries += try service.database { connection in
                let seqs = try EventRepository.ingest(rows, acceptedAt: Date(), on: connection).map { outcome in
                    guard case .accepted(let seq, _) = outcome else {
                        throw ServiceStartError(message: "bench: the latency limit's event was not accepted")
                    }
                    return Int(seq)
                }
                return try BenchLimit.write(seqs, source: source, users: users, on: connection)
            }
        }
        let elapsed = BenchStatistics.seconds(since: start)
        return Figures(
            events: count, deliveries: deliveries, seconds: elapsed,
            cpu: service.cpu.usage(since: cpuStart, events: count))
    }
}
