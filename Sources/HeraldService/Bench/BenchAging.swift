import Foundation
import HeraldPostgres

/// Aging: history is written into past day partitions (events with their keys, decisions, two sent deliveries
/// per event, as the pipeline leaves them), the pipeline phase runs again over it, and retention then drops it
/// while the workers run. The ratio of the aged run to the fresh one shows whether throughput degrades as the
/// tables age.
enum BenchAging {
    /// The history written: `days` past days of `eventsPerDay` events each.
    struct History {
        var days: Int
        var eventsPerDay: Int
        var seconds: Double
    }

    static let fillDay = Query(
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

    /// Writes the history: the days before yesterday, so that one day of retention drops all of it. With no days,
    /// the aged run is a control: the same second run over no history.
    static func fill(_ service: BenchService, days: Int, eventsPerDay: Int, users: Int) throws -> History {
        let start = ContinuousClock.now
        let today = try service.database { try RetentionRepository.today(on: $0) }
        let first = today - days - 1
        if days > 0 {
            try service.database { connection -> Void in
                try RetentionRepository.ensurePartitions(from: first, through: today - 2, on: connection)
            }
        }
        for day in stride(from: first, through: today - 2, by: 1) {
            try service.database { connection -> Void in
                _ = try connection.query(fillDay, [day, eventsPerDay, users])
            }
        }
        // Past days are long written, checkpointed and vacuumed in a real installation: so are they here, so the
        // aged run measures the tables' age, not the background work of having just written them.
        try service.database { connection -> Void in
            _ = try connection.query(Query(unsafeSQL: "VACUUM (ANALYZE) events, decisions, deliveries, event_keys"))
            _ = try connection.query(Query(unsafeSQL: "CHECKPOINT"))
        }
        return History(days: days, eventsPerDay: eventsPerDay, seconds: BenchStatistics.seconds(since: start))
    }

    /// Runs retention with one day kept: every history partition goes. Returns the partitions dropped and the
    /// seconds the run took (the drops and the key trimming).
    static func expire(_ service: BenchService) throws -> (dropped: Int, keys: Int, seconds: Double) {
        let job = RetentionJob(
            settings: RetentionJob.Settings(retentionDays: 1), pool: service.context.pool,
            logger: service.context.logger, metrics: service.context.metrics, clock: service.context.clock)
        let start = ContinuousClock.now
        let report = try job.runOnce()
        return (report.dropped.count, report.keysTrimmed, BenchStatistics.seconds(since: start))
    }
}
