internal import CLibPQ
import Glibc

/// One libpq session. Not thread-safe: it belongs to the thread that uses it (a pool worker, a listener, a test).
public final class PostgresConnection {
    /// The libpq handle; `PQfinish` in `deinit`.
    let handle: OpaquePointer
    /// Prepared statement texts by name, so each named query is parsed once per session.
    var preparedStatements: [String: String] = [:]
    /// Receives server notices (e.g. "relation already exists, skipping"); they are dropped when `nil`.
    public var noticeHandler: ((PostgresNotice) -> Void)?

    /// Connects with a libpq conninfo string or `postgresql://` URL.
    ///
    /// The session always uses UTF-8, ISO dates and UTC, so text values decode the same everywhere.
    public init(conninfo: String) throws {
        let settings = try Conninfo.sessionSettings(for: conninfo)
        let connection = Conninfo.withKeywordArrays(settings) { keywords, values in
            PQconnectdbParams(keywords, values, 1)
        }
        guard let connection else { throw PostgresError(kind: .connectionFailed, message: "out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(kind: .connectionFailed, message: message)
        }
        self.handle = connection
        installNoticeReceiver()
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the session is usable as far as libpq knows (it learns of a loss on the next I/O).
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether the session is outside any transaction block.
    public var isIdle: Bool { PQtransactionStatus(handle) == PQTRANS_IDLE }

    /// Whether the session must be re-established before reuse: broken, or left inside a pipeline.
    var needsReset: Bool { !isConnected || PQpipelineStatus(handle) != PQ_PIPELINE_OFF }

    /// The server process id of this session, as `pg_stat_activity.pid` shows it.
    public var backendPID: Int { Int(PQbackendPID(handle)) }

    /// Reconnects with the same settings; prepared statements are forgotten because the new session has none.
    public func reset() throws {
        preparedStatements.removeAll()
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(kind: .connectionLost, message: String(cString: PQerrorMessage(handle)))
        }
    }

    /// Runs one statement with bind parameters and returns its rows.
    @discardableResult
    public func query(_ query: Query, _ parameters: [(any PostgresEncodable)?] = []) throws -> PostgresResult {
        let values = try PostgresParameters(parameters)
        let statementName = try preparedName(for: query, parameterCount: values.count)
        let result = values.withPointers { pointers in
            if let statementName {
                return PQexecPrepared(handle, statementName, Int32(values.count), pointers, nil, nil, 0)
            }
            return PQexecParams(handle, query.sql, Int32(values.count), nil, pointers, nil, nil, 0)
        }
        return try consume(result)
    }

    /// Runs one statement with bind parameters and returns the number of rows it changed.
    @discardableResult
    public func execute(_ query: Query, _ parameters: [(any PostgresEncodable)?] = []) throws -> Int {
        try self.query(query, parameters).affectedRows
    }

    /// Runs SQL text that may hold several statements and takes no parameters (DDL, migration files).
    public func executeScript(_ query: Query) throws {
        _ = try consume(PQexec(handle, query.sql))
    }

    /// The statement name to execute, preparing it on first use; `nil` means run it unnamed.
    func preparedName(for query: Query, parameterCount: Int) throws -> String? {
        guard query.isPreparable, let name = query.name else { return nil }
        if let known = preparedStatements[name] {
            // Two different texts under one name would be a programming error; run unnamed rather than wrong.
            return known == query.sql ? name : nil
        }
        _ = try consume(PQprepare(handle, name, query.sql, Int32(parameterCount), nil))
        preparedStatements[name] = query.sql
        return name
    }

    /// Converts a libpq result into rows, which own it, or into an error, after which it is freed.
    func consume(_ result: OpaquePointer?) throws -> PostgresResult {
        guard let result else { throw connectionError() }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            defer { PQclear(result) }
            throw error(from: result)
        }
        return PostgresResult(adopting: result)
    }

    /// The error a failed result describes; a broken session always reads as a lost connection.
    func error(from result: OpaquePointer) -> PostgresError {
        func field(_ code: Character) -> String? {
            guard let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: value)
        }
        let message = field("M") ?? String(cString: PQerrorMessage(handle))
        let lost = PQstatus(handle) != CONNECTION_OK
        return PostgresError(
            kind: lost ? .connectionLost : nil, sqlState: field("C"), constraint: field("n"), message: message)
    }

    /// The error of a call that produced no result at all.
    func connectionError() -> PostgresError {
        let message = String(cString: PQerrorMessage(handle))
        return PostgresError(kind: isConnected ? .other : .connectionLost, message: message)
    }

}
