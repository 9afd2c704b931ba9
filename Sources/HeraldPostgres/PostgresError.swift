/// A failure reported by PostgreSQL or by the client library, safe to show: its `description` names only the
/// kind and SQLSTATE, never SQL text, parameter values or server detail (which may contain personal data).
public struct PostgresError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Coarse classes of failure that callers act upon.
    public enum Kind: String, Sendable, Hashable {
        /// The connection could not be established.
        case connectionFailed = "connection failed"
        /// The connection broke during use (server restart, terminated backend, network).
        case connectionLost = "connection lost"
        /// `23505`: a unique constraint rejected the row.
        case uniqueViolation = "unique violation"
        /// `23503`: a foreign key rejected the row.
        case foreignKeyViolation = "foreign key violation"
        /// `23502`: a NOT NULL column got NULL.
        case notNullViolation = "not null violation"
        /// `23514`: a check constraint rejected the row.
        case checkViolation = "check violation"
        /// `40001`: a serializable transaction must be retried.
        case serializationFailure = "serialization failure"
        /// `40P01`: the server broke a deadlock by aborting this transaction.
        case deadlock = "deadlock"
        /// `55P03`: `NOWAIT` found the lock taken.
        case lockNotAvailable = "lock not available"
        /// `57014`: the statement was cancelled or timed out.
        case queryCanceled = "query canceled"
        /// Class `22`: a value was malformed or out of range.
        case invalidValue = "invalid value"
        /// Class `42`: the SQL is wrong or refers to something missing.
        case invalidStatement = "invalid statement"
        /// A result could not be read as the requested type, or a column is missing.
        case decoding = "decoding"
        /// The statement was skipped because an earlier statement of the same pipeline failed.
        case pipelineAborted = "pipeline aborted"
        /// The pool was closed before the work could run.
        case poolClosed = "pool closed"
        /// Every connection stayed busy for longer than the caller may wait; the work never ran.
        case poolTimeout = "pool wait timed out"
        /// Anything else.
        case other = "other"
    }

    /// The coarse class of the failure.
    public let kind: Kind
    /// The five-character SQLSTATE when the server sent one, e.g. `23505`.
    public let sqlState: String?
    /// The violated constraint's name, when the server named one (a schema name, never data).
    public let constraint: String?
    /// The position of the failing statement in a pipeline.
    public let statementIndex: Int?
    /// The server's or client library's message; may contain values, so only for `debugDescription` and logs.
    let detailMessage: String?

    /// Creates an error; the SQLSTATE, when given, decides the kind unless `kind` is given.
    public init(
        kind: Kind? = nil, sqlState: String? = nil, constraint: String? = nil, statementIndex: Int? = nil,
        message: String? = nil
    ) {
        self.kind = kind ?? sqlState.map(Self.kind(forSQLState:)) ?? .other
        self.sqlState = sqlState
        self.constraint = constraint
        self.statementIndex = statementIndex
        self.detailMessage = message
    }

    /// Whether running the same work again (in a new transaction) may succeed.
    public var isRetryable: Bool {
        switch kind {
        case .connectionFailed, .connectionLost, .serializationFailure, .deadlock, .lockNotAvailable, .poolTimeout:
            true
        default: false
        }
    }

    /// Whether the server refused the data itself (a malformed value, or a row a constraint rejects), so that the
    /// same rows would be refused again however often they are sent. A row that no partition of its table takes
    /// is reported as a check violation that names no constraint: that is the schema missing a partition for now,
    /// not the data, and it is not counted here.
    public var refusesData: Bool {
        guard let sqlState else { return false }
        if sqlState == "23514" && constraint == nil { return false }
        return sqlState.hasPrefix("22") || sqlState.hasPrefix("23")
    }

    /// Kind and SQLSTATE only.
    public var description: String {
        var text = "PostgreSQL error: \(kind.rawValue)"
        if let sqlState { text += " [\(sqlState)]" }
        if let statementIndex { text += " at statement \(statementIndex)" }
        return text
    }

    /// The description plus the server's message, for logs that may hold data.
    public var debugDescription: String {
        guard let detailMessage, !detailMessage.isEmpty else { return description }
        return description + ": " + detailMessage
    }

    /// The same error, located at a statement of a pipeline.
    func at(statement index: Int) -> PostgresError {
        PostgresError(
            kind: kind, sqlState: sqlState, constraint: constraint, statementIndex: index, message: detailMessage)
    }

    /// Maps a SQLSTATE to a kind; the class (first two characters) decides where no code is listed.
    static func kind(forSQLState state: String) -> Kind {
        switch state {
        case "23505": return .uniqueViolation
        case "23503": return .foreignKeyViolation
        case "23502": return .notNullViolation
        case "23514": return .checkViolation
        case "40001": return .serializationFailure
        case "40P01": return .deadlock
        case "55P03": return .lockNotAvailable
        case "57014": return .queryCanceled
        // Administrator shutdown, crash shutdown and "cannot connect now": the session is gone.
        case "57P01", "57P02", "57P03": return .connectionLost
        default: break
        }
        switch state.prefix(2) {
        case "08": return .connectionLost
        case "22": return .invalidValue
        case "42": return .invalidStatement
        default: return .other
        }
    }
}
