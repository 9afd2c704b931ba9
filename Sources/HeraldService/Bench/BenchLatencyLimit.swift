import Foundation
import HeraldPostgres

/// The raw PostgreSQL cost of the latency phase's writes, at its pace and batch size: 10 events every 10 ms, first
/// stored through ingest's statement, each batch in its own transaction as a POST commits; then their pipeline rows
/// written as the limit phase writes them, each batch in one transaction as a worker's batch commits. No HTTP, no
/// reads, no deciding. Its CPU per event over the limit phase's is what batches of 10 cost over full batches for
/// writing alone: a floor under the latency phase's own ratio.
enum BenchLatencyLimit {
    /// What one run wrote, how long it took and the CPU each part cost.
    struct Figures {
        var events: Int
        var deliveries: Int
        var seconds: Double
        var ingest: BenchCPU.Usage
        var decisions: BenchCPU.Usage

        /// Both parts together.
        var cpu: BenchCPU.Usage {
            BenchCPU.Usage(
                events: events, heraldSeconds: ingest.heraldSeconds + decisions.heraldSeconds,
                postgresSeconds: ingest.postgresSeconds.flatMap { a in decisions.postgresSeconds.map { a + $0 } })
        }
    }

    /// Writes `seconds` × 1,000 events of `source`, each part at that pace from one thread, with no worker running.
    static func run(
        _ service: BenchService, population: BenchPopulation, source: String, seconds: Int, users: Int
    ) throws -> Figures {
        let count = seconds * 1_000
        let batches = try stride(from: 0, to: count, by: 10).map {
            try BenchIngestLimit.rows(population.eventBatch(source: source, $0..<($0 + 10)))
        }
        let start = ContinuousClock.now
        var cpuStart = service.cpu.read()
        let seqs = try paced(service, batches) { rows, connection in
            try EventRepository.ingest(rows, acceptedAt: Date(), on: connection).map { outcome in
                guard case .accepted(let seq, _) = outcome else {
                    throw ServiceStartError(message: "bench: the latency limit's event was not accepted")
                }
                return Int(seq)
            }
        }
        let ingest = service.cpu.usage(since: cpuStart, events: count)
        cpuStart = service.cpu.read()
        let deliveries = try paced(service, seqs) { seqs, connection in
            try BenchLimit.write(seqs, source: source, users: users, on: connection)
        }.reduce(0, +)
        let decisions = service.cpu.usage(since: cpuStart, events: count)
        return Figures(
            events: count, deliveries: deliveries, seconds: BenchStatistics.seconds(since: start), ingest: ingest,
            decisions: decisions)
    }

    /// Runs `write` for each batch, one every 10 ms, on a pooled connection; returns what each returned.
    private static func paced<Batch: Sendable, Result: Sendable>(
        _ service: BenchService, _ batches: [Batch],
        _ write: @escaping @Sendable (Batch, PostgresConnection) throws -> Result
    ) throws -> [Result] {
        let start = Date()
        var results: [Result] = []
        for (index, batch) in batches.enumerated() {
            let due = start.addingTimeInterval(Double(index) * 0.01)
            if due > Date() { Thread.sleep(until: due) }
            results.append(try service.database { try write(batch, $0) })
        }
        return results
    }
}
