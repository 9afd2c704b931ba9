internal import CLibPQ

extension PostgresConnection {
    /// Runs `body` inside BEGIN … COMMIT; any error thrown rolls back and is rethrown.
    @discardableResult
    public func transaction<R>(
        _ isolation: IsolationLevel = .readCommitted, _ body: (PostgresConnection) throws -> R
    ) throws -> R {
        try executeScript(isolation.begin)
        do {
            let value = try body(self)
            try executeScript(Self.commit)
            return value
        } catch {
            rollbackIfNeeded()
            throw error
        }
    }

    /// Rolls back an open or failed transaction, so a reused session starts clean; errors are moot here.
    func rollbackIfNeeded() {
        guard isConnected, !isIdle else { return }
        PQclear(PQexec(handle, "ROLLBACK"))
    }

    /// Transaction isolation levels for `transaction(_:_:)`.
    public enum IsolationLevel: Sendable {
        /// PostgreSQL's default.
        case readCommitted
        /// One snapshot for the whole transaction.
        case repeatableRead
        /// Full serializability; be ready to retry on `serializationFailure`.
        case serializable

        var begin: Query {
            switch self {
            case .readCommitted: Query(name: "begin", sql: "BEGIN")
            case .repeatableRead: Query(name: "begin.repeatable_read", sql: "BEGIN ISOLATION LEVEL REPEATABLE READ")
            case .serializable: Query(name: "begin.serializable", sql: "BEGIN ISOLATION LEVEL SERIALIZABLE")
            }
        }
    }

    static let commit = Query(name: "commit", sql: "COMMIT")
}
