import Foundation
import HeraldPostgres

/// The raw PostgreSQL cost of the latency phase's writes, at its pace and batch size: 10 events every 10 ms, first
/// stored through ingest's statement, each batch in its own transaction as a POST commits; then the limit phase's
/// rows for them, through the statements a worker sends for a batch that small (`BenchLimit.writeWithStatements`),
/// each batch in one transaction and one round trip, as a worker's batch commits. No HTTP, no reads, no deciding.
/// Its CPU per event over the limit phase's is what batches of 10 cost over full batches for writing alone: a floor
/// under the latency phase's own ratio.
///
/// The same batches are then written back to back, from the same one thread, with no pause between them. Paced over
/// back to back is what the pace alone costs on this machine (waking an idle server and client for every
/// transaction), with the batches, the statements and the rows unchanged; back to back over the limit phase is what
/// the batch size alone costs.
enum BenchLatencyLimit {
    /// What one part (ingest's rows, then the decisions' rows) cost.
    struct Part {
        var events: Int
        var deliveries: Int
        /// Wall-clock seconds for both parts.
        var seconds: Double
        var ingest: BenchCPU.Usage
        var decisions: BenchCPU.Usage

        /// Both parts together.
        var cpu: BenchCPU.Usage {
            BenchCPU.Usage(
                events: events, heraldSeconds: ingest.heraldSeconds + decisions.heraldSeconds,
                postgresSeconds: ingest.postgresSeconds.flatMap { a in decisions.postgresSeconds.map { a + $0 } })
        }

        var json: [String: Any] {
            cpu.json.merging([
                "events": events, "deliveries": deliveries, "seconds": seconds, "ingest": ingest.json,
                "decisions": decisions.json,
            ]) { $1 }
        }
    }

    /// How batches follow each other.
    enum Pace {
        /// One every 10 ms, as the latency phase posts them.
        case latency
        /// Each as soon as the one before committed.
        case backToBack
    }

    /// Writes `seconds` × 1,000 events of `source` in batches of 10 at `pace`, each part from one thread, with no
    /// worker running.
    static func run(
        _ service: BenchService, population: BenchPopulation, source: String, seconds: Int, rows: BenchLimitRows,
        pace: Pace
    ) throws -> Part {
        let count = seconds * 1_000
        let batches = try batches(population, source: source, count: count)
        let start = ContinuousClock.now
        var cpuStart = service.cpu.read()
        let seqs = try write(service, batches, pace: pace) { events, connection in try store(events, on: connection) }
        let ingest = service.cpu.usage(since: cpuStart, events: count)
        cpuStart = service.cpu.read()
        let deliveries = try write(service, seqs, pace: pace) { seqs, connection in
            try BenchLimit.writeWithStatements(seqs, source: source, rows: rows, on: connection)
        }.reduce(0, +)
        let decisions = service.cpu.usage(since: cpuStart, events: count)
        return Part(
            events: count, deliveries: deliveries, seconds: BenchStatistics.seconds(since: start), ingest: ingest,
            decisions: decisions)
    }

    /// The same rows with each batch's events and their decisions in one transaction (BEGIN, ingest's statement,
    /// then the decisions' statements with COMMIT), 10 events every 10 ms from one thread: what a design that decided
    /// each POST's events before its commit would write at least, since ingest must commit what it accepted before it
    /// answers and a batch must write its rows. Returns the CPU it cost.
    static func together(
        _ service: BenchService, population: BenchPopulation, source: String, seconds: Int, rows: BenchLimitRows
    ) throws -> BenchCPU.Usage {
        let count = seconds * 1_000
        let batches = try batches(population, source: source, count: count)
        let cpuStart = service.cpu.read()
        _ = try write(service, batches, pace: .latency) { events, connection in
            do {
                _ = try connection.pipeline([PipelineRepository.beginQuery])
                return try BenchLimit.writeWithStatements(
                    try store(events, on: connection), source: source, rows: rows, opened: true, on: connection)
            } catch {
                PipelineRepository.abandon(connection)
                throw error
            }
        }
        return service.cpu.usage(since: cpuStart, events: count)
    }

    /// `count` events of `source` as ingest's rows, in batches of 10, built before any clock starts.
    private static func batches(
        _ population: BenchPopulation, source: String, count: Int
    ) throws -> [[EventIngestRow]] {
        try stride(from: 0, to: count, by: 10).map {
            try BenchIngestLimit.rows(population.eventBatch(source: source, $0..<($0 + 10)))
        }
    }

    /// Stores `rows` through ingest's statement; returns their seqs.
    private static func store(_ rows: [EventIngestRow], on connection: PostgresConnection) throws -> [Int] {
        try EventRepository.ingest(rows, acceptedAt: Date(), on: connection).map { outcome in
            guard case .accepted(let seq, _) = outcome else {
                throw ServiceStartError(message: "bench: the latency limit's event was not accepted")
            }
            return Int(seq)
        }
    }

    /// Runs `write` for each batch at `pace` on a pooled connection; returns what each returned.
    private static func write<Batch: Sendable, Result: Sendable>(
        _ service: BenchService, _ batches: [Batch], pace: Pace,
        _ write: @escaping @Sendable (Batch, PostgresConnection) throws -> Result
    ) throws -> [Result] {
        let start = Date()
        var results: [Result] = []
        for (index, batch) in batches.enumerated() {
            if pace == .latency {
                let due = start.addingTimeInterval(Double(index) * 0.01)
                if due > Date() { Thread.sleep(until: due) }
            }
            results.append(try service.database { try write(batch, $0) })
        }
        return results
    }
}
