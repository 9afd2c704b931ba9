import Foundation

/// One statement's figures from `pg_stat_statements`.
public struct BenchStatementFigures: Sendable {
    public var calls: Int
    /// Execution time, planning not included.
    public var totalMilliseconds: Double
    public var meanMilliseconds: Double
    /// Planning time: every custom plan, and the generic plan once per session.
    public var planMilliseconds: Double
    /// How often the statement was planned.
    public var plans: Int
    public var rows: Int
    /// Write-ahead log the statement wrote, in bytes, and how many of its records were full page images (the first
    /// change to a page after a checkpoint).
    public var walBytes: Double
    public var walFullPages: Int
    /// The normalized statement, whitespace collapsed, cut to its first 100 characters.
    public var text: String

    /// One statement's figures.
    public init(
        calls: Int, totalMilliseconds: Double, meanMilliseconds: Double, planMilliseconds: Double, plans: Int,
        rows: Int, walBytes: Double = 0, walFullPages: Int = 0, text: String
    ) {
        self.calls = calls
        self.totalMilliseconds = totalMilliseconds
        self.meanMilliseconds = meanMilliseconds
        self.planMilliseconds = planMilliseconds
        self.plans = plans
        self.rows = rows
        self.walBytes = walBytes
        self.walFullPages = walFullPages
        self.text = text
    }
}

extension BenchRepository {
    // Maintenance commands cannot be prepared, so they go as fixed one-off text.
    static let createStatementStatistics = Query(
        unsafeSQL: "CREATE EXTENSION IF NOT EXISTS pg_stat_statements", name: "bench_create_pg_stat_statements")
    static let autovacuumWorkers = Query(
        name: "bench_autovacuum_workers",
        sql: "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'")
    static let unlistenAll = Query(unsafeSQL: "UNLISTEN *", name: "bench_unlisten_all")
    static let resetStatementStatistics = Query(
        name: "bench_reset_statements", sql: "SELECT pg_stat_statements_reset()::text")
    // The benchmark's own reads of the view are left out; everything else in this database counts.
    static let topStatements = Query(
        name: "bench_top_statements",
        sql: """
            SELECT calls, total_exec_time, mean_exec_time, total_plan_time, plans, rows, wal_bytes::float8, wal_fpi,
                   left(regexp_replace(query, '\\s+', ' ', 'g'), 100)
            FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND query NOT LIKE '%pg_stat_statements%'
            ORDER BY total_exec_time + total_plan_time DESC
            LIMIT $1
            """)
    static let retireSource = Query(
        name: "bench_retire_source",
        sql: """
            UPDATE events SET state = 'decided', decided_at = $2
            WHERE source = $1 AND state = 'pending'
            """)

    /// How many autovacuum workers run now, in any database of the server.
    public static func autovacuumWorkers(on connection: PostgresConnection) throws -> Int {
        try connection.query(autovacuumWorkers).single().int(0)
    }

    /// Stops listening on every channel, so that a pooled connection goes back as it came.
    public static func unlistenAll(on connection: PostgresConnection) throws {
        try connection.executeScript(unlistenAll)
    }

    /// Creates the `pg_stat_statements` extension in the current database (the server must preload it).
    public static func enableStatementStatistics(on connection: PostgresConnection) throws {
        try connection.executeScript(createStatementStatistics)
    }

    /// Forgets every statement's figures, so the next reading covers only what follows.
    public static func resetStatementStatistics(on connection: PostgresConnection) throws {
        _ = try connection.query(resetStatementStatistics)
    }

    /// The `limit` statements of this database that took the most execution and planning time since the last reset.
    public static func topStatements(limit: Int, on connection: PostgresConnection) throws -> [BenchStatementFigures] {
        try connection.query(topStatements, [limit]).map {
            BenchStatementFigures(
                calls: try $0.int(0), totalMilliseconds: try $0.double(1), meanMilliseconds: try $0.double(2),
                planMilliseconds: try $0.double(3), plans: try $0.int(4), rows: try $0.int(5),
                walBytes: try $0.double(6), walFullPages: try $0.int(7), text: try $0.string(8))
        }
    }

    /// Marks the pending events of `source` decided at `now` without deciding them, so that no worker takes
    /// events that were only written to measure writing them.
    public static func retireEvents(source: String, at now: Date, on connection: PostgresConnection) throws {
        _ = try connection.execute(retireSource, [source, now])
    }
}
