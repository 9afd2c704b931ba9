import Foundation
import HeraldCore
import HeraldPostgres

/// The raw write rate of PostgreSQL for exactly the rows the pipeline writes per event — a decision with every
/// column the pipeline fills (its feed position among them), one queue row per device shaped as the pipeline's
/// (`BenchLimitRows`), the recipient's counters (unread count, feed position and user-wide rate bucket, one row), the
/// event marked decided — with the best method each allows
/// (COPY for plain rows, one unnest upsert for the counters), in one transaction per batch, from as many parallel
/// writers as the pipeline has workers. No decision logic, no reads: the ceiling the pipeline is compared with.
enum BenchLimit {
    /// What one run wrote and how long it took.
    struct Figures {
        var events: Int
        var deliveries: Int
        var seconds: Double
    }

    /// Writes the rows for the pending events of `source` in batches of `batch` from `writers` threads.
    static func run(
        _ service: BenchService, source: String, rows: BenchLimitRows, batch: Int, writers: Int
    ) throws -> Figures {
        // Seqs carry their day in the high bits, so the batches are cut from the list of seqs, not a span.
        let seqs = try service.database { try BenchRepository.eventSeqs(source: source, on: $0) }
        let start = ContinuousClock.now
        let written = try BenchThreads.each(BenchThreads.batches(seqs, of: batch), lanes: writers) { range in
            try service.database { connection in try write(range, source: source, rows: rows, on: connection) }
        }
        return Figures(
            events: seqs.count, deliveries: written.reduce(0, +),
            seconds: BenchStatistics.seconds(since: start))
    }

    /// One batch's transaction: both COPYs, then the state upserts, the events' update and COMMIT in one pipeline.
    static func write(
        _ range: [Int], source: String, rows: BenchLimitRows, on connection: PostgresConnection
    ) throws -> Int {
        let now = Date()
        let (created, expires) = (now.postgresText, now.addingTimeInterval(86_400).postgresText)
        do {
            _ = try connection.pipeline([PipelineRepository.beginQuery])
            var written = 0
            try connection.copyIn(BenchRepository.copyDeliveries) { copy in
                for seq in range {
                    for slot in 0..<BenchPopulation.deviceCount(rows.user(seq)) {
                        // The writer the pipeline's deliveries use, with rows of their shape.
                        try copy.append(
                            texts: rows.copyTexts(seq, slot: slot, source: source, created: created, expires: expires))
                        written += 1
                    }
                }
            }
            try connection.copyIn(DecisionRepository.copyQuery) { copy in
                for seq in range {
                    let user = rows.user(seq)
                    let ids = (0..<BenchPopulation.deviceCount(user)).map { BenchLimitRows.deliveryId(seq, slot: $0) }
                    let notification = BenchLimitRows.notificationId(seq)
                    try copy.append([
                        seq, "u\(user)", "delivered", nil, now, notification, notification, 1,
                        "{" + ids.joined(separator: ",") + "}", nil, nil, true, now, nil, seq,
                    ])
                }
            }
            _ = try connection.pipeline(try closingQueries(range, rows: rows, now: now))
            return written
        } catch {
            PipelineRepository.abandon(connection)
            throw error
        }
    }

    /// The same rows through the statements a worker sends when its batch is too small for COPY (the queue rows and
    /// the decisions by one unnest insert each, in the closing pipeline): BEGIN, the inserts, the state upserts, the
    /// events' update and COMMIT in one round trip. With `opened`, the transaction is already open: no BEGIN.
    static func writeWithStatements(
        _ range: [Int], source: String, rows: BenchLimitRows, opened: Bool = false, on connection: PostgresConnection
    ) throws -> Int {
        let now = Date()
        var deliveries: [DeliveryRow] = []
        var decisions: [DecisionRecord] = []
        for seq in range {
            let user = rows.user(seq)
            let queued = (0..<BenchPopulation.deviceCount(user)).map { slot in
                DeliveryRow(
                    rows.delivery(seq, slot: slot, at: now), eventSource: source, eventId: BenchLimitRows.eventId(seq))
            }
            deliveries += queued
            let notification = BenchLimitRows.notificationId(seq)
            decisions.append(
                DecisionRecord(
                    eventSeq: Int64(seq), userId: "u\(user)", outcome: "delivered", detail: nil, deliverAt: now,
                    notificationId: notification, collapseId: notification, badge: 1,
                    deliveryIds: queued.map(\.id), itemId: nil, threadId: nil, countsUnread: true, decidedAt: now,
                    feedPosition: Int64(seq)))
        }
        let inserts = [
            DeliveryRepository.insertQuery(deliveries, now: now), DecisionRepository.insertQuery(decisions, now: now),
        ]
        let queries =
            (opened ? [] : [PipelineRepository.beginQuery]) + inserts.compactMap { $0 }
            + (try closingQueries(range, rows: rows, now: now))
        do {
            _ = try connection.pipeline(queries)
        } catch {
            PipelineRepository.abandon(connection)
            throw error
        }
        return deliveries.count
    }

    /// The close of a batch either way: the state each event of `range` changes (its recipient's unread count,
    /// feed position and user-wide bucket) by the pipeline's own statements, the events' update and COMMIT.
    private static func closingQueries(_ range: [Int], rows: BenchLimitRows, now: Date) throws -> [BoundQuery] {
        var state = RecipientStateWrite()
        let bucket = TokenBucket(capacity: 60, windowSeconds: 3_600, at: now)
        for seq in range {
            let user = "u\(rows.user(seq))"
            state.unread[user] = 1
            state.feedPositions[user] = 1
            state.buckets[RecipientStateWrite.Key(userId: user, key: RecipientStateRepository.allCategoriesScope)] =
                bucket
        }
        return try RecipientStateRepository.writeQueries(state, now: now) + [
            BenchRepository.markDecidedQuery(from: range.first!, through: range.last!, at: now),
            PipelineRepository.commitQuery,
        ]
    }
}
