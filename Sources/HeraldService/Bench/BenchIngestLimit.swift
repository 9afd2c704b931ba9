import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// The raw write rate of PostgreSQL for exactly the rows ingest writes per event — its `event_keys` and `events`
/// rows, through the same statement (`EventRepository.ingest`) — in batches of 100 from 4 connections, with no
/// HTTP, no parsing, no validation and no backlog check: the ceiling the ingest phase is compared with. The rows are
/// built before the clock starts, by the route's own parser, from the same request bodies the ingest phase posts.
enum BenchIngestLimit {
    /// What one run wrote, how long it took and the CPU it cost.
    struct Figures {
        var events: Int
        var seconds: Double
        var cpu: BenchCPU.Usage
    }

    /// Stores `count` events of `source` in batches of 100 from `connections` threads, then marks them decided
    /// without deciding them (untimed), so that no worker later spends a phase on them.
    static func run(
        _ service: BenchService, population: BenchPopulation, source: String, count: Int, connections: Int = 4
    ) throws -> Figures {
        let batches = try stride(from: 0, to: count, by: 100).map {
            try rows(population.eventBatch(source: source, $0..<min($0 + 100, count)))
        }
        let cpuStart = service.cpu.read()
        let start = ContinuousClock.now
        let accepted = try BenchThreads.each(batches, lanes: connections) { rows in
            let outcomes = try service.database { connection in
                try EventRepository.ingest(rows, acceptedAt: Date(), on: connection)
            }
            return outcomes.filter { if case .accepted = $0 { true } else { false } }.count
        }.reduce(0, +)
        let seconds = BenchStatistics.seconds(since: start)
        let cpu = service.cpu.usage(since: cpuStart, events: count)
        guard accepted == count else {
            throw ServiceStartError(message: "bench: the ingest limit stored \(accepted) of \(count) events")
        }
        try service.database { try BenchRepository.retireEvents(source: source, at: Date(), on: $0) }
        return Figures(events: count, seconds: seconds, cpu: cpu)
    }

    /// The rows the ingest route would store for one request body.
    static func rows(_ body: String) throws -> [EventIngestRow] {
        guard case .object(let members) = try JSONParser.parse(Array(body.utf8)),
            case .array(let events)? = members["events"]
        else { throw ServiceStartError(message: "bench: a batch body is not an object with events") }
        return try events.map { event in
            guard case .event(let incoming) = IncomingEvent.parse(event) else {
                throw ServiceStartError(message: "bench: a generated event is invalid")
            }
            return incoming.ingestRow
        }
    }
}
