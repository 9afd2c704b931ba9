import Foundation
import HeraldCore

extension RecipientStateRepository {
    static let upsertUnread = Query(
        name: "recipients_upsert_unread",
        sql: """
            INSERT INTO unread_counts (user_id, unread, updated_at)
            SELECT u, n, $3 FROM unnest($1::text[], $2::integer[]) AS t(u, n)
            ON CONFLICT ON CONSTRAINT unread_counts_pkey
            DO UPDATE SET unread = EXCLUDED.unread, updated_at = EXCLUDED.updated_at
            """)
    static let upsertFeedPositions = Query(
        name: "recipients_upsert_feed_positions",
        sql: """
            INSERT INTO feed_positions (user_id, position)
            SELECT u, p FROM unnest($1::text[], $2::bigint[]) AS t(u, p)
            ON CONFLICT ON CONSTRAINT feed_positions_pkey
            DO UPDATE SET position = GREATEST(feed_positions.position, EXCLUDED.position)
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
        if !write.unread.isEmpty {
            let entries = write.unread.sorted { $0.key < $1.key }
            queries.append(
                BoundQuery(
                    upsertUnread,
                    [
                        PipelineArray(entries.map(\.key)), PipelineArray(entries.map { String(max(0, $0.value)) }),
                        now,
                    ]))
        }
        if !write.feedPositions.isEmpty {
            let entries = write.feedPositions.sorted { $0.key < $1.key }
            queries.append(
                BoundQuery(
                    upsertFeedPositions,
                    [PipelineArray(entries.map(\.key)), PipelineArray(entries.map { String($0.value) })]))
        }
        if !write.buckets.isEmpty {
            let entries = Array(write.buckets)
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
}
