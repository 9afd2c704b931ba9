import HeraldPostgres

/// How long database work may take: a stuck statement, a held lock or a saturated pool ends in a 503 with
/// `Retry-After` for the one request that met it, never in a server that stops answering.
extension ServiceConfig {
    mutating func applyDatabaseTimeouts(_ values: [String: String], problems: inout [ConfigProblem]) {
        Self.integer(
            values, "HERALD_DB_STATEMENT_TIMEOUT_MS", 0...3_600_000, &databaseStatementTimeoutMilliseconds, &problems)
        Self.integer(values, "HERALD_DB_LOCK_TIMEOUT_MS", 0...3_600_000, &databaseLockTimeoutMilliseconds, &problems)
        Self.integer(values, "HERALD_DB_POOL_WAIT_MS", 1...600_000, &databasePoolWaitMilliseconds, &problems)
    }

    /// The request pool: `size` connections whose sessions carry the statement and lock timeouts, and whose
    /// blocking callers (the HTTP handlers) wait at most the pool wait.
    func requestPoolConfiguration(conninfo: String) -> PostgresPool.Configuration {
        var configuration = PostgresPool.Configuration(conninfo: conninfo, size: databasePoolSize)
        configuration.maximumWait = .milliseconds(databasePoolWaitMilliseconds)
        configuration.sessionParameters = sessionTimeouts
        return configuration
    }

    /// The statement and lock timeouts as server parameters, for every pool of the service.
    var sessionTimeouts: [(name: String, value: String)] {
        [
            ("statement_timeout", String(databaseStatementTimeoutMilliseconds)),
            ("lock_timeout", String(databaseLockTimeoutMilliseconds)),
        ]
    }
}
