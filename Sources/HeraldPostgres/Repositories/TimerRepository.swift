import Foundation

/// The SQL of collapse-window timers.
///
/// Timers are read without a lock and fired only after the owner's user row is locked (and re-read then), so a
/// timer firing never waits on a row lock while holding another: the worker's only blocking lock is the user's.
public enum TimerRepository {
    static let due = Query(
        name: "timers_due",
        sql: """
            SELECT user_id, key, category_id, due_at FROM timers WHERE due_at <= $1
            ORDER BY due_at LIMIT $2
            """)
    static let delete = Query(
        name: "timers_delete",
        sql: """
            DELETE FROM timers AS t USING unnest($1::text[], $2::text[]) AS d(u, k)
            WHERE t.user_id = d.u AND t.key = d.k
            """)
    static let upsert = Query(
        name: "timers_upsert",
        sql: """
            INSERT INTO timers (user_id, key, category_id, due_at)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
            ON CONFLICT ON CONSTRAINT timers_pkey
            DO UPDATE SET category_id = EXCLUDED.category_id, due_at = EXCLUDED.due_at
            """)
    static let next = Query(name: "timers_next", sql: "SELECT min(due_at) FROM timers")

    /// The due-timer lookup as a statement for a pipeline.
    public static func dueQuery(at now: Date, limit: Int) -> BoundQuery { BoundQuery(due, [now, limit]) }

    /// Reads timers out of a result with the columns of `dueQuery`.
    public static func timers(from result: PostgresResult) throws -> [TimerRecord] {
        try result.map { row in
            TimerRecord(
                userId: try row.string("user_id"), key: try row.string("key"),
                categoryId: try row.string("category_id"), dueAt: try row.date("due_at"))
        }
    }

    /// Deletes fired (or orphaned) timers, then arms `armed` (replacing a timer of the same group).
    public static func writeQueries(deleting fired: [TimerRecord], arming armed: [TimerRecord]) -> [BoundQuery] {
        var queries: [BoundQuery] = []
        if !fired.isEmpty {
            queries.append(
                BoundQuery(delete, [PipelineArray(fired.map(\.userId)), PipelineArray(fired.map(\.key))]))
        }
        if !armed.isEmpty {
            queries.append(
                BoundQuery(
                    upsert,
                    [
                        PipelineArray(armed.map(\.userId)), PipelineArray(armed.map(\.key)),
                        PipelineArray(armed.map(\.categoryId)), PipelineArray(armed.map { $0.dueAt.postgresText }),
                    ]))
        }
        return queries
    }

    /// When the next timer is due, if any.
    public static func nextDue(on connection: PostgresConnection) throws -> Date? {
        try connection.query(next).single().decode(Date?.self, 0)
    }
}
