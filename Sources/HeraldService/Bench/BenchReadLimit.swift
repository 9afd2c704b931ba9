import Foundation
import HeraldCore
import HeraldPostgres

/// What the pipeline does to an event besides deciding it and writing its decision, deliveries and counters, at
/// full batches from as many threads as it has workers: the claim, the recipients' row locks and state, the
/// categories, and the events' progress, each batch in one transaction, through the pipeline's own store and
/// statements. Then the events' progress alone, the part the limit phase also writes. With the limit phase, they
/// give the least the pipeline can cost: limit + reads − progress, before any deciding.
enum BenchReadLimit {
    /// Claims, reads and marks decided every pending event in batches of `batch` from `writers` threads; no worker
    /// may run, and only the events meant for it may be pending. Without `state` it only locks the recipients'
    /// rows: no state, no categories. Returns the CPU it cost.
    static func reads(_ service: BenchService, batch: Int, writers: Int, state: Bool = true) throws -> BenchCPU.Usage {
        let categories = CategoryVersionCache()
        let claimsInFlight = ClaimsInFlight()
        let cpuStart = service.cpu.read()
        let read = try BenchThreads.run(max(1, writers)) { _ in
            var events = 0
            while true {
                let claimed = try service.database { connection in
                    try readBatch(
                        batch, categories: categories, claimsInFlight: claimsInFlight, state: state, on: connection)
                }
                guard claimed > 0 else { return events }
                events += claimed
            }
        }.reduce(0, +)
        return service.cpu.usage(since: cpuStart, events: read)
    }

    /// Marks the pending events of `source` decided with the pipeline's progress statement alone, in batches of
    /// `batch` from `writers` threads. Returns the CPU it cost.
    static func progress(_ service: BenchService, source: String, batch: Int, writers: Int) throws -> BenchCPU.Usage {
        let seqs = try service.database { try BenchRepository.eventSeqs(source: source, on: $0) }
        let batches = BenchThreads.batches(seqs.map(Int64.init), of: batch)
        let cpuStart = service.cpu.read()
        _ = try BenchThreads.each(batches, lanes: writers) { seqs in
            try service.database { connection in
                _ = try connection.pipeline([
                    PipelineRepository.beginQuery, progressQuery(seqs, now: Date()), PipelineRepository.commitQuery,
                ])
            }
        }
        return service.cpu.usage(since: cpuStart, events: seqs.count)
    }

    /// One batch as the pipeline opens it, with its recipients' state and categories read under their locks, and
    /// its events marked decided; returns how many events it claimed.
    private static func readBatch(
        _ batch: Int, categories: CategoryVersionCache, claimsInFlight: ClaimsInFlight, state: Bool,
        on connection: PostgresConnection
    ) throws -> Int {
        let store = PostgresDecisionStore(connection, categoryCache: categories, claimsInFlight: claimsInFlight)
        let now = Date()
        do {
            let (claims, _) = try store.openBatch(events: batch, timers: 0, now: now)
            let events = claims.compactMap { EventDocument.decode(Array($0.document.utf8)) }
            let userIds = events.flatMap(\.recipients.userIds)
            var closing = [progressQuery(claims.map(\.seq), now: now), PipelineRepository.commitQuery]
            if state {
                _ = try store.recipients(
                    userIds, categories: Array(Set(events.map(\.category))), now: now, lock: true)
            } else {
                closing.insert(RecipientStateRepository.lockQuery(userIds), at: 0)
            }
            _ = try connection.pipeline(closing)
            claimsInFlight.committed(ObjectIdentifier(connection), decided: Set(claims.map(\.seq)))
            return claims.count
        } catch {
            store.abandon()
            throw error
        }
    }

    /// The pipeline's progress statement, marking `seqs` decided with one recipient each.
    private static func progressQuery(_ seqs: [Int64], now: Date) -> BoundQuery {
        EventRepository.progressQuery(
            seqs.map { EventProgress(seq: $0, done: true, fanoutAfter: nil, recipients: 1) }, at: now)
    }
}
