import Foundation
import HeraldCore

/// The SQL of the event inbox: batch ingest, the workers' claim, progress, status and backlog.
public enum EventRepository {
    /// The channel ingest notifies and workers listen on.
    public static let channel = "herald_events"

    /// Inserts a whole batch in one statement: unknown and archived categories are refused, existing
    /// (source, id) pairs are left alone and reported with their stored hash, so the caller tells a retry from a
    /// conflict. Rows must be unique by (source, id). The key goes to `event_keys` (unique across every day
    /// partition), which also allocates the seq; the event row follows only for a key stored now. The seqs stored
    /// now are looked up in one JSON object built once: joined back as rows, the planner's tiny estimate for the
    /// CTE made it a nested loop, quadratic in the batch (160–265 ms for 1,000 events, against 45–70 ms now).
    static let ingest = Query(
        name: "events_ingest",
        sql: """
            WITH input AS (
                SELECT u.ord, u.source, u.id, u.category_id, u.body_hash, u.document::jsonb AS document
                FROM unnest($1::text[], $4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY
                     AS u(source, id, category_id, body_hash, document, ord)
            ),
            checked AS (
                SELECT i.*, (c.id IS NOT NULL OR i.category_id = $3) AS category_known,
                       c.archived_at IS NOT NULL AS archived
                FROM input i LEFT JOIN categories c ON c.id = i.category_id
            ),
            keyed AS (
                INSERT INTO event_keys (source, id, body_hash, accepted_at)
                SELECT source, id, body_hash, $2 FROM checked
                WHERE category_known AND NOT archived
                ORDER BY ord
                ON CONFLICT ON CONSTRAINT event_keys_pkey DO NOTHING
                RETURNING seq, source, id
            ),
            inserted AS (
                INSERT INTO events (seq, source, id, category_id, body_hash, document, accepted_at)
                SELECT k.seq, c.source, c.id, c.category_id, c.body_hash, c.document, $2
                FROM keyed k JOIN checked c ON c.source = k.source AND c.id = k.id
            )
            SELECT c.ord, c.category_known, c.archived,
                   (n.seqs ->> jsonb_build_array(c.source, c.id)::text)::bigint AS new_seq, e.seq AS old_seq,
                   e.body_hash AS old_hash, e.accepted_at AS old_accepted_at
            FROM checked c
            CROSS JOIN (SELECT jsonb_object_agg(jsonb_build_array(source, id)::text, seq) AS seqs FROM keyed) n
            LEFT JOIN event_keys e ON e.source = c.source AND e.id = c.id
            ORDER BY c.ord
            """)
    static let notify = Query(name: "events_notify", sql: "SELECT pg_notify('herald_events', '')")

    /// Stores a batch durably (one statement, one round trip plus its commit) and notifies the workers.
    /// Returns one outcome per row, in order.
    public static func ingest(
        _ rows: [EventIngestRow], acceptedAt: Date, on connection: PostgresConnection
    ) throws -> [EventIngestOutcome] {
        guard !rows.isEmpty else { return [] }
        var outcomes = [EventIngestOutcome?](repeating: nil, count: rows.count)
        var pending = Array(rows.indices)
        // A row racing a concurrent insert of the same (source, id) is invisible to this statement's snapshot;
        // one more pass sees the committed row.
        for _ in 0..<3 where !pending.isEmpty {
            let batch = pending.map { rows[$0] }
            let results = try connection.pipeline([
                BoundQuery(
                    ingest,
                    [
                        PipelineArray(batch.map(\.source)), acceptedAt, ReadEvent.categoryId,
                        PipelineArray(batch.map(\.id)),
                        PipelineArray(batch.map(\.categoryId)), PipelineArray(batch.map(\.bodyHash)),
                        PipelineArray(batch.map(\.document)),
                    ]),
                BoundQuery(notify),
            ])
            var retry: [Int] = []
            for row in results[0] {
                let position = pending[try row.int("ord") - 1]
                if let outcome = try outcome(of: row, hash: rows[position].bodyHash, acceptedAt: acceptedAt) {
                    outcomes[position] = outcome
                } else {
                    retry.append(position)
                }
            }
            pending = retry
        }
        guard pending.isEmpty else {
            throw PostgresError(kind: .serializationFailure, message: "event ingest kept racing a concurrent insert")
        }
        return outcomes.map { $0! }
    }

    private static func outcome(of row: PostgresRow, hash: String, acceptedAt: Date) throws -> EventIngestOutcome? {
        if let seq = try row.decode(Int64?.self, "new_seq") { return .accepted(seq: seq, acceptedAt: acceptedAt) }
        if let seq = try row.decode(Int64?.self, "old_seq") {
            let stored = try row.date("old_accepted_at")
            return try row.string("old_hash") == hash
                ? .duplicate(seq: seq, acceptedAt: stored) : .conflict(acceptedAt: stored)
        }
        if try !row.bool("category_known") { return .unknownCategory }
        if try row.bool("archived") { return .archivedCategory }
        return nil
    }

    /// The counter part of an event seq; the bits above hold the UTC day number (see `0011_retention.sql`).
    public static let counterMask: Int64 = (1 << 44) - 1

    // MARK: - The workers' side

    /// Undecided events in acceptance order; SKIP LOCKED so concurrent workers take disjoint events without waiting
    /// for each other. The locks last until the worker's transaction ends, so a crash hands them back. The query
    /// lives in `herald_claim_events` (`0012_claims_walk_indexes.sql`), which keeps it an index walk whatever the
    /// statistics of a freshly filled day partition say; given `after`, the walk starts after that seq and goes on
    /// below it only when that finds less than a batch (`0033_claims_start_after_batches_in_flight.sql`, its one
    /// statement for both ranges since `0034_claim_select_list_written_once.sql`).
    static let claim = Query(
        name: "events_claim",
        sql: """
            SELECT seq, source, id, category_id, document, fanout_after, recipients_decided
            FROM herald_claim_events($1, $2::bigint)
            """)

    /// The claim as a statement for a pipeline (inside the worker's transaction): up to `limit` events, starting
    /// after the seq `after` (nil: from the start).
    public static func claimQuery(limit: Int, after: Int64? = nil) -> BoundQuery {
        BoundQuery(claim, [limit, after])
    }

    /// Reads the claimed events out of the claim's result, in seq order.
    public static func claims(from result: PostgresResult) throws -> [EventClaim] {
        try result.map { row in
            EventClaim(
                seq: try row.int64("seq"), source: try row.string("source"), id: try row.string("id"),
                categoryId: try row.string("category_id"), document: try row.string("document"),
                fanoutAfter: try row.decode(String?.self, "fanout_after"),
                recipientsDecided: try row.int("recipients_decided"))
        }.sorted { $0.seq < $1.seq }
    }

    // `herald_record_progress` (migration 0020) holds the UPDATE, so that its plan is made once per session.
    static let progress = Query(
        name: "events_progress",
        sql: """
            SELECT herald_record_progress(
                $1::timestamptz, $2::bigint[], $3::boolean[], $4::text[], $5::integer[], $6, $7, $8::text[])
            """)

    /// Marks events decided (or records the next topic page) in the worker's transaction. The batch's seq range
    /// prunes the day partitions when the statement starts, so the join never reads the history.
    public static func progressQuery(_ progress: [EventProgress], at now: Date) -> BoundQuery {
        let seqs = progress.map(\.seq)
        return BoundQuery(
            Self.progress,
            [
                now, PipelineArray(progress.map { String($0.seq) }),
                PipelineArray(progress.map { $0.done ? "true" : "false" }),
                PipelineArray(optional: progress.map(\.fanoutAfter)),
                PipelineArray(progress.map { String($0.recipients) }), seqs.min() ?? 0, seqs.max() ?? 0,
                PipelineArray(optional: progress.map(\.outcome)),
            ])
    }

    // MARK: - Status and backlog

    static let status = Query(
        name: "events_status",
        sql: """
            SELECT seq, source, id, category_id, state, accepted_at, decided_at, recipients_decided, outcome
            FROM events WHERE source = $1 AND id = $2
            """)

    /// The event `(source, id)`, if accepted.
    public static func status(
        source: String, id: String, on connection: PostgresConnection
    ) throws
        -> EventStatusRecord?
    {
        try connection.query(status, [source, id]).first.map { row in
            EventStatusRecord(
                seq: try row.int64("seq"), source: try row.string("source"), id: try row.string("id"),
                categoryId: try row.string("category_id"), state: try row.string("state"),
                acceptedAt: try row.date("accepted_at"), decidedAt: try row.decode(Date?.self, "decided_at"),
                recipientsDecided: try row.int("recipients_decided"), outcome: try row.decode(String?.self, "outcome"))
        }
    }

    static let backlog = Query(
        name: "events_backlog",
        sql: "SELECT count(*) FROM (SELECT 1 FROM events WHERE state = 'pending' LIMIT $1) AS pending")

    static let backlogBound = Query(
        name: "events_backlog_bound",
        sql: """
            SELECT COALESCE(
                ((SELECT max(seq) FROM events) & $1) - ((SELECT min(seq) FROM events WHERE state = 'pending') & $1)
                    + 1, 0)
            """)

    /// An upper bound of the undecided events from two index probes: the span of the seqs' counter part (below
    /// the day bits) from the oldest undecided event to the newest event. Exact while workers decide in order;
    /// `backlog(upTo:)` confirms a high value.
    public static func backlogUpperBound(on connection: PostgresConnection) throws -> Int {
        try connection.query(backlogBound, [counterMask]).single().int(0)
    }

    /// Undecided events, counted up to `limit` (counting further would cost time and change no answer).
    public static func backlog(upTo limit: Int, on connection: PostgresConnection) throws -> Int {
        try connection.query(backlog, [limit]).single().int(0)
    }
}
