import Foundation
import HeraldCore

extension RecipientStateRepository {
    /// The recipients' counters: a NULL leaves a value as it is (the unread count is marked changed by its time),
    /// a feed position never goes back, and the bucket's four columns change together.
    static let upsertCounters = Query(
        name: "recipients_upsert_counters",
        sql: """
            INSERT INTO recipient_counters AS c (
                user_id, unread, unread_updated_at, feed_position, bucket_capacity, bucket_window_seconds, bucket_tokens,
                bucket_updated_at)
            SELECT u, coalesce(n, 0), CASE WHEN n IS NOT NULL THEN $8::timestamptz END, coalesce(p, 0), bc, bw, bt, bu
            FROM unnest($1::text[], $2::integer[], $3::bigint[], $4::integer[], $5::integer[], $6::float8[],
                        $7::timestamptz[]) AS t(u, n, p, bc, bw, bt, bu)
            ON CONFLICT ON CONSTRAINT recipient_counters_pkey
            DO UPDATE SET
                unread = CASE WHEN EXCLUDED.unread_updated_at IS NULL THEN c.unread ELSE EXCLUDED.unread END,
                unread_updated_at = coalesce(EXCLUDED.unread_updated_at, c.unread_updated_at),
                feed_position = greatest(c.feed_position, EXCLUDED.feed_position),
                bucket_capacity = coalesce(EXCLUDED.bucket_capacity, c.bucket_capacity),
                bucket_window_seconds = coalesce(EXCLUDED.bucket_window_seconds, c.bucket_window_seconds),
                bucket_tokens = coalesce(EXCLUDED.bucket_tokens, c.bucket_tokens),
                bucket_updated_at = coalesce(EXCLUDED.bucket_updated_at, c.bucket_updated_at)
            """)
    static let upsertBuckets = Query(
        name: "recipients_upsert_buckets",
        sql: """
            INSERT INTO rate_buckets (user_id, scope, capacity, window_seconds, tokens, updated_at)
            SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::integer[], $5::float8[], $6::timestamptz[])
            ON CONFLICT ON CONSTRAINT rate_buckets_pkey
            DO UPDATE SET capacity = EXCLUDED.capacity, window_seconds = EXCLUDED.window_seconds,
                          tokens = EXCLUDED.tokens, updated_at = EXCLUDED.updated_at
            """)
    static let upsertGroups = Query(
        name: "recipients_upsert_groups",
        sql: """
            INSERT INTO collapse_groups (user_id, key, state, window_ends_at, updated_at)
            SELECT u, k, s, w, $5 FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::timestamptz[]) AS t(u, k, s, w)
            ON CONFLICT ON CONSTRAINT collapse_groups_pkey
            DO UPDATE SET state = EXCLUDED.state, window_ends_at = EXCLUDED.window_ends_at,
                          updated_at = EXCLUDED.updated_at
            """)
    static let deleteGroups = Query(
        name: "recipients_delete_groups",
        sql: """
            DELETE FROM collapse_groups AS g USING unnest($1::text[], $2::text[]) AS t(u, k)
            WHERE g.user_id = t.u AND g.key = t.k
            """)
    static let upsertBudgets = Query(
        name: "recipients_upsert_budgets",
        sql: """
            INSERT INTO silent_budgets (installation_id, user_id, state, updated_at)
            SELECT i, u, s, $4 FROM unnest($1::text[], $2::text[], $3::jsonb[]) AS t(i, u, s)
            ON CONFLICT ON CONSTRAINT silent_budgets_pkey
            DO UPDATE SET user_id = EXCLUDED.user_id, state = EXCLUDED.state, updated_at = EXCLUDED.updated_at
            """)

    /// The statements that store `write`, for the batch's closing pipeline.
    public static func writeQueries(_ write: RecipientStateWrite, now: Date) throws -> [BoundQuery] {
        var queries: [BoundQuery] = []
        if let counters = countersQuery(write, now: now) { queries.append(counters) }
        let buckets = write.buckets.filter { $0.key.key != allCategoriesScope }
        if !buckets.isEmpty {
            let entries = Array(buckets)
            queries.append(
                BoundQuery(
                    upsertBuckets,
                    [
                        PipelineArray(entries.map(\.key.userId)), PipelineArray(entries.map(\.key.key)),
                        PipelineArray(entries.map { String($0.value.capacity) }),
                        PipelineArray(entries.map { String($0.value.windowSeconds) }),
                        PipelineArray(entries.map { $0.value.tokens.postgresText }),
                        PipelineArray(entries.map { $0.value.updatedAt.postgresText }),
                    ]))
        }
        let idle = write.groups.filter { $0.value.phase == .idle }.map(\.key)
        if !idle.isEmpty {
            queries.append(
                BoundQuery(deleteGroups, [PipelineArray(idle.map(\.userId)), PipelineArray(idle.map(\.key))]))
        }
        let open = write.groups.filter { $0.value.phase != .idle }
        if !open.isEmpty {
            let entries = Array(open)
            queries.append(
                BoundQuery(
                    upsertGroups,
                    [
                        PipelineArray(entries.map(\.key.userId)), PipelineArray(entries.map(\.key.key)),
                        PipelineArray(try entries.map { try PipelineJSON.encode($0.value) }),
                        PipelineArray(optional: entries.map { $0.value.windowEndsAt?.postgresText }), now,
                    ]))
        }
        if !write.budgets.isEmpty {
            let entries = Array(write.budgets)
            queries.append(
                BoundQuery(
                    upsertBudgets,
                    [
                        PipelineArray(entries.map(\.key)), PipelineArray(entries.map(\.value.userId)),
                        PipelineArray(try entries.map { try PipelineJSON.encode($0.value.budget) }), now,
                    ]))
        }
        return queries
    }

    /// One upsert of every recipient whose unread count, feed position or user-wide bucket changed. The service's
    /// writers of a user's counters hold the user's row lock, taken in id order; the rows go sorted by `<` all the
    /// same, one order for every writer, so that writers holding no user lock (the benchmark's limit) never wait
    /// on each other in a cycle either. (`<`, not byte order: it is cheaper, and any one order does.)
    static func countersQuery(_ write: RecipientStateWrite, now: Date) -> BoundQuery? {
        var userIds = Set(write.unread.keys).union(write.feedPositions.keys)
        for key in write.buckets.keys where key.key == allCategoriesScope { userIds.insert(key.userId) }
        guard !userIds.isEmpty else { return nil }
        let sorted = userIds.sorted()
        let buckets = sorted.map { write.buckets[RecipientStateWrite.Key(userId: $0, key: allCategoriesScope)] }
        // A batch's buckets were mostly refilled at the same instant: its text is written once.
        var texts = BatchTexts()
        return BoundQuery(
            upsertCounters,
            [
                PipelineArray(sorted),
                PipelineArray(optional: sorted.map { write.unread[$0].map { String(max(0, $0)) } }),
                PipelineArray(optional: sorted.map { write.feedPositions[$0].map { String($0) } }),
                PipelineArray(optional: buckets.map { $0.map { String($0.capacity) } }),
                PipelineArray(optional: buckets.map { $0.map { String($0.windowSeconds) } }),
                PipelineArray(optional: buckets.map { $0?.tokens.postgresText }),
                PipelineArray(optional: buckets.map { $0.map { texts.date($0.updatedAt) } }),
                now,
            ])
    }
}
