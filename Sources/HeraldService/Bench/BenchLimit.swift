import Foundation
import HeraldCore
import HeraldPostgres

/// The raw write rate of PostgreSQL for exactly the rows the pipeline writes per event — a decision with every
/// column the pipeline fills (its feed position among them), one queue row per device, the recipient's unread
/// count, feed position and user-wide rate bucket, the event marked decided — with the best method each allows
/// (COPY for plain rows, one unnest upsert per table for state), in one transaction per batch, from as many parallel
/// writers as the pipeline has workers. No decision logic, no reads: the ceiling the pipeline is compared with.
enum BenchLimit {
    /// What one run wrote and how long it took.
    struct Figures {
        var events: Int
        var deliveries: Int
        var seconds: Double
    }

    /// Writes the rows for the pending events of `source` in batches of `batch` from `writers` threads.
    static func run(_ service: BenchService, source: String, users: Int, batch: Int, writers: Int) throws -> Figures {
        // Seqs carry their day in the high bits, so the batches are cut from the list of seqs, not a span.
        let seqs = try service.database { try BenchRepository.eventSeqs(source: source, on: $0) }
        let start = ContinuousClock.now
        let written = try BenchThreads.each(BenchThreads.batches(seqs, of: batch), lanes: writers) { range in
            try service.database { connection in try write(range, source: source, users: users, on: connection) }
        }
        return Figures(
            events: seqs.count, deliveries: written.reduce(0, +),
            seconds: BenchStatistics.seconds(since: start))
    }

    /// One batch's transaction: both COPYs, then the state upserts, the events' update and COMMIT in one pipeline.
    static func write(
        _ range: [Int], source: String, users: Int, on connection: PostgresConnection
    ) throws -> Int {
        let now = Date()
        let body = String(repeating: "x", count: 180)
        let headers = #"{"apns-push-type":"alert","apns-priority":"10"}"#
        let token = String(repeating: "a", count: 64)
        let (created, expires) = (now.postgresText, now.addingTimeInterval(86_400).postgresText)
        do {
            _ = try connection.pipeline([PipelineRepository.beginQuery])
            var written = 0
            try connection.copyIn(BenchRepository.copyDeliveries) { copy in
                for seq in range {
                    let user = seq % users
                    for slot in 0..<BenchPopulation.deviceCount(user) {
                        // The writer and the row form the pipeline's deliveries use.
                        try copy.append(texts: [
                            "d-\(seq)-\(slot)", "n-\(seq)", source, "e\(seq)", "u\(user)", "i\(user * 4 + slot)",
                            "apns", "production", token, "alert", headers, body, "c-\(seq)", nil, "10", created,
                            created, expires,
                        ])
                        written += 1
                    }
                }
            }
            try connection.copyIn(BenchRepository.copyDecisions) { copy in
                for seq in range {
                    let user = seq % users
                    let ids = (0..<BenchPopulation.deviceCount(user)).map { "d-\(seq)-\($0)" }
                    try copy.append([
                        seq, "u\(user)", "delivered", nil, now, "n-\(seq)", "c-\(seq)", 1,
                        "{" + ids.joined(separator: ",") + "}", nil, nil, true, now, nil, seq,
                    ])
                }
            }
            _ = try connection.pipeline(try closingQueries(range, users: users, now: now))
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
        _ range: [Int], source: String, users: Int, opened: Bool = false, on connection: PostgresConnection
    ) throws -> Int {
        let now = Date()
        let body = Array(String(repeating: "x", count: 180).utf8)
        let headers = ["apns-push-type": "alert", "apns-priority": "10"]
        var deliveries: [DeliveryRow] = []
        var decisions: [DecisionRecord] = []
        for seq in range {
            let user = seq % users
            let rows = (0..<BenchPopulation.deviceCount(user)).map { slot in
                DeliveryRow(
                    Delivery(
                        platform: .apns, kind: .alert, userId: "u\(user)", installationId: "i\(user * 4 + slot)",
                        token: String(repeating: "a", count: 64), environment: .production, headers: headers,
                        body: body, collapseId: "c-\(seq)", priority: 10, expiresAt: now.addingTimeInterval(86_400),
                        availableAt: now, notificationId: "n-\(seq)", eventId: "e\(seq)", coalesceKey: nil),
                    eventSource: source, eventId: "e\(seq)")
            }
            deliveries += rows
            decisions.append(
                DecisionRecord(
                    eventSeq: Int64(seq), userId: "u\(user)", outcome: "delivered", detail: nil, deliverAt: now,
                    notificationId: "n-\(seq)", collapseId: "c-\(seq)", badge: 1, deliveryIds: rows.map(\.id),
                    itemId: nil, threadId: nil, countsUnread: true, decidedAt: now, feedPosition: Int64(seq)))
        }
        let inserts = [
            DeliveryRepository.insertQuery(deliveries, now: now), DecisionRepository.insertQuery(decisions, now: now),
        ]
        let queries =
            (opened ? [] : [PipelineRepository.beginQuery]) + inserts.compactMap { $0 }
            + (try closingQueries(range, users: users, now: now))
        do {
            _ = try connection.pipeline(queries)
        } catch {
            PipelineRepository.abandon(connection)
            throw error
        }
        return deliveries.count
    }

    /// The close of a batch either way: the state each event of `range` changes (its recipient's unread count,
    /// feed position and user-wide bucket) by one upsert per table, the events' update and COMMIT.
    private static func closingQueries(_ range: [Int], users: Int, now: Date) throws -> [BoundQuery] {
        var state = RecipientStateWrite()
        let bucket = TokenBucket(capacity: 60, windowSeconds: 3_600, at: now)
        for seq in range {
            let user = "u\(seq % users)"
            state.unread[user] = 1
            state.feedPositions[user] = 1
            state.buckets[RecipientStateWrite.Key(userId: user, key: "*")] = bucket
        }
        return try RecipientStateRepository.writeQueries(state, now: now) + [
            BenchRepository.markDecidedQuery(from: range.first!, through: range.last!, at: now),
            PipelineRepository.commitQuery,
        ]
    }
}
