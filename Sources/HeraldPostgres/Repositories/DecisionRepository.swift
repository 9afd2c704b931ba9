import Foundation
import HeraldCore

/// The SQL of decisions, digests and reads.
public enum DecisionRepository {
    // The primary key (event, user) is the last line of defence of "decided once": a second decision for the
    // same recipient fails the whole batch transaction instead of being recorded.
    static let insert = Query(
        name: "decisions_insert",
        sql: """
            INSERT INTO decisions (event_seq, user_id, outcome, detail, deliver_at, notification_id, collapse_id, badge,
                                   delivery_ids, item_id, thread_id, counts_unread, decided_at, read_at, feed_seq)
            SELECT s, u, o, d, w, n, c, b, string_to_array(ids, ','), i, t, cu, $13, r, f
            FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[],
                        $8::integer[], $9::text[], $10::text[], $11::text[], $12::boolean[], $14::timestamptz[],
                        $15::bigint[])
                 AS x(s, u, o, d, w, n, c, b, ids, i, t, cu, r, f)
            """)

    /// The statement recording `records` (all decided at `now`), for the batch's closing pipeline.
    public static func insertQuery(_ records: [DecisionRecord], now: Date) -> BoundQuery? {
        guard !records.isEmpty else { return nil }
        return BoundQuery(
            insert,
            [
                PipelineArray(records.map { String($0.eventSeq) }), PipelineArray(records.map(\.userId)),
                PipelineArray(records.map(\.outcome)), PipelineArray(optional: records.map(\.detail)),
                PipelineArray(optional: records.map { $0.deliverAt?.postgresText }),
                PipelineArray(optional: records.map(\.notificationId)),
                PipelineArray(optional: records.map(\.collapseId)),
                PipelineArray(optional: records.map { $0.badge.map(String.init) }),
                PipelineArray(records.map { $0.deliveryIds.joined(separator: ",") }),
                PipelineArray(optional: records.map(\.itemId)), PipelineArray(optional: records.map(\.threadId)),
                PipelineArray(records.map { $0.countsUnread ? "true" : "false" }), now,
                PipelineArray(optional: records.map { $0.readAt?.postgresText }),
                PipelineArray(optional: records.map { $0.feedPosition.map(String.init) }),
            ])
    }

    /// The decisions' columns of `insert`, by COPY.
    public static let copyQuery = Query(
        name: "decisions_copy",
        sql: """
            COPY decisions (event_seq, user_id, outcome, detail, deliver_at, notification_id, collapse_id, badge,
                            delivery_ids, item_id, thread_id, counts_unread, decided_at, read_at, feed_seq)
            FROM STDIN
            """)

    /// Records `records` (all decided at `now`) by COPY, the bulk path: one stream for the whole batch, which costs
    /// PostgreSQL less than the unnest insert's arrays (about 14 against 17 µs a row at 500 rows), but a round trip
    /// of its own.
    public static func copy(_ records: [DecisionRecord], now: Date, on connection: PostgresConnection) throws {
        guard !records.isEmpty else { return }
        let decided = now.postgresText
        var texts = BatchTexts()
        try connection.copyIn(copyQuery) { writer in
            for record in records {
                writer.cell(Int(record.eventSeq))
                try writer.cell(record.userId)
                try writer.cell(record.outcome)
                try writer.cell(record.detail)
                try writer.cell(record.deliverAt.map { texts.date($0) })
                try writer.cell(record.notificationId)
                try writer.cell(record.collapseId)
                writer.cell(record.badge)
                try writer.cell(PipelineArray(record.deliveryIds).postgresText)
                try writer.cell(record.itemId)
                try writer.cell(record.threadId)
                try writer.cell(record.countsUnread ? "t" : "f")
                try writer.cell(decided)
                try writer.cell(record.readAt.map { texts.date($0) })
                writer.cell(record.feedPosition.map { Int($0) })
                try writer.endRow()
            }
        }
    }

    static let insertDigests = Query(
        name: "digests_insert",
        sql: """
            INSERT INTO digests (notification_id, user_id, collapse_key, category_id, outcome, detail, deliver_at,
                                 event_count, folded, delivery_ids, decided_at, collapse_id, burst_started_at,
                                 burst_known_ids)
            SELECT n, u, k, c, o, d, w, e, f, string_to_array(ids, ','), $10, ci, b, string_to_array(kn, ',')
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
                        $8::integer[], $9::text[], $11::integer[], $12::text[], $13::timestamptz[], $14::text[])
                 AS x(n, u, k, c, o, d, w, e, ids, f, ci, b, kn)
            """)

    /// The statement recording digests, for the batch's closing pipeline.
    public static func insertDigestsQuery(_ records: [DecisionDigestRecord], now: Date) -> BoundQuery? {
        guard !records.isEmpty else { return nil }
        return BoundQuery(
            insertDigests,
            [
                PipelineArray(records.map(\.notificationId)), PipelineArray(records.map(\.userId)),
                PipelineArray(records.map(\.collapseKey)), PipelineArray(records.map(\.categoryId)),
                PipelineArray(records.map(\.outcome)), PipelineArray(optional: records.map(\.detail)),
                PipelineArray(optional: records.map { $0.deliverAt?.postgresText }),
                PipelineArray(optional: records.map { $0.eventCount.map(String.init) }),
                PipelineArray(records.map { $0.deliveryIds.joined(separator: ",") }), now,
                PipelineArray(optional: records.map { $0.folded.map(String.init) }),
                PipelineArray(optional: records.map(\.collapseId)),
                PipelineArray(optional: records.map { $0.burst?.startedAt.postgresText }),
                PipelineArray(optional: records.map { $0.burst?.known.map { $0.sorted().joined(separator: ",") } }),
            ])
    }

    // The user's unread notifications by the read's keys: the state a read starts from, as the recipients' state
    // holds only their active devices. With them come the user's other unread notifications sharing a collapse id
    // with them or with `$5` (the read's candidates decided earlier in the same batch), for the core to know
    // whether the notification on the device still stands for some. Which of them the read covers, and what it
    // withdraws, is `ReadScope.select`'s to decide. Each comes with its event's category and when it was decided,
    // by which an open burst knows its own. The filter is decisions_unread's, so the walk is over unread rows only,
    // never a long thread's whole history.
    static let readCandidates = Query(
        name: "decisions_read_candidates",
        sql: """
            WITH unread AS (
                SELECT event_seq, user_id, notification_id, item_id, thread_id, collapse_id, counts_unread, decided_at
                FROM decisions
                WHERE user_id = $1 AND notification_id IS NOT NULL AND read_at IS NULL
            ), named AS (
                SELECT * FROM unread
                WHERE item_id = ANY($2::text[]) OR thread_id = $3 OR notification_id = ANY($4::text[])
            )
            SELECT u.event_seq, u.user_id, u.notification_id, u.item_id, u.thread_id, u.collapse_id, u.counts_unread,
                   false AS is_read, u.decided_at,
                   (SELECT e.category_id FROM events e WHERE e.seq = u.event_seq) AS category_id
            FROM unread u
            WHERE u.event_seq IN (SELECT event_seq FROM named)
               OR u.collapse_id IN (SELECT collapse_id FROM named) OR u.collapse_id = ANY($5::text[])
            ORDER BY u.event_seq
            """)

    /// `scope`'s user's unread stored notifications of its items, its thread or its notification ids, and the
    /// unread ones sharing a collapse id with them or with `collapseIds`, oldest first. Run under the user's lock,
    /// so no other read marks them before this transaction's does.
    public static func readCandidates(
        for scope: ReadScope, sharing collapseIds: [String] = [], on connection: PostgresConnection
    ) throws -> [ReadCandidate<DecisionKey>] {
        let parameters: [(any PostgresEncodable)?] = [
            scope.userId, PipelineArray(scope.itemIds), scope.threadId, PipelineArray(scope.notificationIds),
            PipelineArray(collapseIds),
        ]
        return try connection.query(readCandidates, parameters).map { row in
            ReadCandidate(
                key: DecisionKey(eventSeq: try row.int64("event_seq"), userId: try row.string("user_id")),
                notificationId: try row.decode(String?.self, "notification_id"),
                itemId: try row.decode(String?.self, "item_id"), threadId: try row.decode(String?.self, "thread_id"),
                collapseId: try row.decode(String?.self, "collapse_id"), countsUnread: try row.bool("counts_unread"),
                isRead: try row.bool("is_read"), categoryId: try row.decode(String?.self, "category_id"),
                decidedAt: try row.date("decided_at"))
        }
    }

    static let markRead = Query(
        name: "decisions_mark_read",
        sql: """
            UPDATE decisions AS d SET read_at = $1
            FROM unnest($2::bigint[], $3::text[]) AS k(s, u)
            WHERE d.event_seq = k.s AND d.user_id = k.u AND d.event_seq BETWEEN $4 AND $5
            """)

    /// Marks the decisions of `keys` read at `now`, in one statement; nothing to do for no keys. The keys' seq range
    /// prunes the day partitions when the statement starts.
    public static func markRead(_ keys: [DecisionKey], at now: Date, on connection: PostgresConnection) throws {
        let seqs = keys.map(\.eventSeq)
        guard let first = seqs.min(), let last = seqs.max() else { return }
        _ = try connection.query(
            markRead, [now, PipelineArray(seqs.map(String.init)), PipelineArray(keys.map(\.userId)), first, last])
    }

    static let forEvent = Query(
        name: "decisions_for_event",
        sql: """
            SELECT event_seq, user_id, outcome, detail, deliver_at, notification_id, collapse_id, badge,
                   delivery_ids::text AS delivery_ids, item_id, thread_id, counts_unread, decided_at
            FROM decisions WHERE event_seq = $1 AND user_id > $2
            ORDER BY user_id LIMIT $3
            """)

    /// The decisions of one event, by user id after `after`, at most `limit`.
    public static func decisions(
        eventSeq: Int64, after: String, limit: Int, on connection: PostgresConnection
    ) throws -> [DecisionRecord] {
        try connection.query(forEvent, [eventSeq, after, limit]).map { row in
            DecisionRecord(
                eventSeq: try row.int64("event_seq"), userId: try row.string("user_id"),
                outcome: try row.string("outcome"), detail: try row.decode(String?.self, "detail"),
                deliverAt: try row.decode(Date?.self, "deliver_at"),
                notificationId: try row.decode(String?.self, "notification_id"),
                collapseId: try row.decode(String?.self, "collapse_id"), badge: try row.decode(Int?.self, "badge"),
                deliveryIds: PipelineArray.parse(try row.string("delivery_ids")),
                itemId: try row.decode(String?.self, "item_id"), threadId: try row.decode(String?.self, "thread_id"),
                countsUnread: try row.bool("counts_unread"), decidedAt: try row.date("decided_at"))
        }
    }
}
