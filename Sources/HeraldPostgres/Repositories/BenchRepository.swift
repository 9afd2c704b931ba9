import Foundation

/// The SQL of `herald bench`: synthetic history and populations written straight into the tables, the raw writes
/// the pipeline is compared with, and the figures the benchmark reads back. `herald serve` never runs any of it.
public enum BenchRepository {
    // One past day of history, as the pipeline leaves it: decided events with their keys, a read decision each
    // and two sent deliveries. Seqs carry the day in their high bits, as the partitioned tables expect.
    static let historyDay = Query(
        name: "bench_history_day",
        sql: """
            WITH e AS (
                INSERT INTO events (seq, source, id, category_id, body_hash, document, state, accepted_at, decided_at,
                                    recipients_decided)
                SELECT ($1::bigint << 44) + n, 'bench-history', 'h' || $1 || '-' || n, 'bench.message',
                       repeat('a', 64), '{"data":{"text":"an old message"}}', 'decided',
                       to_timestamp($1 * 86400.0 + n % 86400), to_timestamp($1 * 86400.0 + n % 86400), 1
                FROM generate_series(1, $2::integer) AS n
                RETURNING seq, source, id, body_hash, accepted_at
            ),
            k AS (INSERT INTO event_keys SELECT source, id, seq, body_hash, accepted_at FROM e),
            d AS (
                INSERT INTO decisions (event_seq, user_id, outcome, notification_id, delivery_ids, item_id,
                                       decided_at, read_at, feed_seq)
                SELECT seq, 'u' || ((seq & 17592186044415) % $3), 'delivered', 'hn-' || seq,
                       ARRAY['hd-' || seq || '-0', 'hd-' || seq || '-1'], 'hi-' || seq, accepted_at, accepted_at,
                       NULL
                FROM e
            )
            INSERT INTO deliveries (id, notification_id, user_id, installation_id, platform, environment, token, kind,
                                    headers, body, priority, created_at, available_at, expires_at, state, finished_at,
                                    stored_day)
            SELECT 'hd-' || seq || '-' || slot, 'hn-' || seq, 'u' || ((seq & 17592186044415) % $3),
                   'i' || ((seq & 17592186044415) % $3) || '-' || slot, 'apns', 'production', repeat('a', 64), 'alert',
                   '{"apns-push-type":"alert","apns-priority":"10"}', repeat('x', 180), 10, accepted_at, accepted_at,
                   accepted_at + interval '1 day', 'sent', accepted_at, $1
            FROM e, generate_series(0, 1) AS slot
            """)
    // Maintenance commands cannot be prepared, so they go as fixed one-off text.
    static let vacuumHistory = Query(
        unsafeSQL: "VACUUM (ANALYZE) events, decisions, deliveries, event_keys", name: "bench_vacuum")
    static let checkpoint = Query(unsafeSQL: "CHECKPOINT", name: "bench_checkpoint")
    static let vacuumPipeline = Query(
        unsafeSQL:
            "VACUUM (ANALYZE) events, event_keys, decisions, deliveries, recipient_counters, rate_buckets",
        name: "bench_vacuum_pipeline")

    /// The COPY of the queue rows the pipeline writes per device, for the raw write rate.
    public static let copyDeliveries = Query(
        name: "bench_copy_deliveries",
        sql: """
            COPY deliveries (id, notification_id, event_source, event_id, user_id, installation_id, platform,
                             environment, token, kind, headers, body, collapse_id, coalesce_key, priority, created_at,
                             available_at, expires_at)
            FROM STDIN
            """)
    static let markDecided = Query(
        name: "bench_mark_decided",
        sql: """
            UPDATE events SET state = 'decided', decided_at = $3, recipients_decided = 1
            WHERE seq BETWEEN $1 AND $2
            """)
    static let eventSeqs = Query(name: "bench_event_seqs", sql: "SELECT seq FROM events WHERE source = $1 ORDER BY seq")
    static let nextSeq = Query(name: "bench_next_seq", sql: "SELECT COALESCE(max(seq), 0) + 1 FROM events")
    static let decidedSince = Query(
        name: "bench_decided_since",
        sql: """
            SELECT seq, extract(epoch FROM accepted_at)::float8, extract(epoch FROM decided_at)::float8 FROM events
            WHERE seq >= $1 AND seq < $3 AND source = $2 AND state = 'decided'
            ORDER BY seq
            LIMIT 1000
            """)
    /// The rows of one `decidedSince` page.
    static let decidedPage = 1_000
    /// A seq holds its UTC day number above this many bits (`herald_next_event_seq`).
    static let dayShift = 44
    static let backendProcess = Query(name: "bench_backend_pid", sql: "SELECT pg_backend_pid()")
    static let planCacheMode = Query(
        name: "bench_plan_cache_mode", sql: "SELECT set_config('plan_cache_mode', $1, false)")

    /// Writes `events` decided events of the UTC day number `day` to `users` users, with their keys, decisions and
    /// sent deliveries; the day's partitions must exist.
    public static func writeHistoryDay(_ day: Int, events: Int, users: Int, on connection: PostgresConnection) throws {
        _ = try connection.query(historyDay, [day, events, users])
    }

    /// Vacuums and checkpoints the written history, as time would have in a real installation.
    public static func settleHistory(on connection: PostgresConnection) throws {
        _ = try connection.query(vacuumHistory)
        _ = try connection.query(checkpoint)
    }

    /// Vacuums and analyzes every table the pipeline writes, then checkpoints, so that the debt of what came before
    /// is paid: the dead rows, and the dirty pages (the vacuum's own among them) that would otherwise be written,
    /// and synced, under the next phase's commits.
    public static func vacuumPipelineTables(on connection: PostgresConnection) throws {
        _ = try connection.query(vacuumPipeline)
        _ = try connection.query(checkpoint)
    }

    /// Marks the events from seq `first` through `last` decided at `now`, for a pipeline batch.
    public static func markDecidedQuery(from first: Int, through last: Int, at now: Date) -> BoundQuery {
        BoundQuery(markDecided, [first, last, now])
    }

    /// The seqs of the events of `source`, in order.
    public static func eventSeqs(source: String, on connection: PostgresConnection) throws -> [Int] {
        try connection.query(eventSeqs, [source]).map { try $0.int(0) }
    }

    /// The process id of the server process behind `connection`.
    public static func backendProcess(on connection: PostgresConnection) throws -> Int32 {
        Int32(try connection.query(backendProcess).first?.int(0) ?? 0)
    }

    /// The seq the next stored event gets at the least.
    public static func nextEventSeq(on connection: PostgresConnection) throws -> Int {
        try connection.query(nextSeq).single().int(0)
    }

    /// The decided events of `source` from seq `first` on, each with its acceptance time and its decision time (the
    /// deciding batch's clock when it started) in seconds since 1970.
    ///
    /// It reads pages of `decidedPage` rows in seq order until a page is short, so a seq that never comes (a gap)
    /// costs one more page, never a stall. Run it inside `withGenericPlans`: planned afresh on every call, the poll
    /// spent more time planning than executing.
    public static func decidedEvents(
        source: String, from first: Int, on connection: PostgresConnection
    ) throws -> [(seq: Int, acceptedAt: Double, decidedAt: Double)] {
        var rows: [(seq: Int, acceptedAt: Double, decidedAt: Double)] = []
        var from = first
        // A seq's high bits are its UTC day: the day of `first` and the next one are read, so the plan's initial
        // pruning leaves two day partitions to scan instead of every one ahead.
        let end = ((first >> dayShift) + 2) << dayShift
        while true {
            let page = try connection.query(decidedSince, [from, source, end]).map {
                (try $0.int(0), try $0.double(1), try $0.double(2))
            }
            rows += page
            guard page.count == decidedPage, let last = page.last else { return rows }
            from = last.0 + 1
        }
    }

    /// Runs `body` with the session's statements on their generic plans, then back on the server's choice.
    ///
    /// The poll's generic plan walks each partition's primary key from the first seq and stops after a page; a
    /// custom plan costs a planning of the partitioned table on every call.
    public static func withGenericPlans<R>(
        on connection: PostgresConnection, _ body: () throws -> R
    ) throws -> R {
        _ = try connection.query(planCacheMode, ["force_generic_plan"])
        defer { _ = try? connection.query(planCacheMode, ["auto"]) }
        return try body()
    }
}
