internal import CLibPQ

extension PostgresConnection {
    /// Streams rows into `COPY … FROM STDIN` (text format) and returns the number of rows copied.
    ///
    /// `query` must be a `COPY table (columns) FROM STDIN` statement; `write` appends rows to the writer, which
    /// escapes them and sends them in chunks. If `write` throws, the COPY is abandoned and nothing is stored.
    @discardableResult
    public func copyIn(_ query: Query, _ write: (CopyWriter) throws -> Void) throws -> Int {
        let start = PQexec(handle, query.sql)
        guard let start else { throw connectionError() }
        let status = PQresultStatus(start)
        guard status == PGRES_COPY_IN else {
            defer { PQclear(start) }
            if status == PGRES_FATAL_ERROR { throw error(from: start) }
            throw PostgresError(kind: .invalidStatement, message: "statement is not COPY FROM STDIN")
        }
        PQclear(start)
        let writer = CopyWriter(connection: self)
        var failure: (any Error)?
        do {
            try write(writer)
            try writer.flush()
        } catch {
            failure = error
        }
        // Ending with an error message makes the server abandon the COPY; NULL ends it normally.
        let ended = failure == nil ? PQputCopyEnd(handle, nil) : PQputCopyEnd(handle, "aborted by the client")
        var copied = 0
        var serverError: PostgresError?
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                copied = PostgresResult.affectedRows(of: result)
            } else if serverError == nil {
                serverError = error(from: result)
            }
            PQclear(result)
        }
        if let failure { throw failure }
        if let serverError { throw serverError }
        guard ended == 1 else { throw connectionError() }
        return copied
    }

    /// Copies `rows` (one array of column values per row, `nil` for NULL) and returns the number copied.
    @discardableResult
    public func copyIn<Rows: Sequence>(_ query: Query, rows: Rows) throws -> Int
    where Rows.Element == [(any PostgresEncodable)?] {
        try copyIn(query) { writer in
            for row in rows { try writer.append(row) }
        }
    }

    /// Sends one chunk of COPY data.
    func putCopyData(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
        }
        guard sent == 1 else { throw connectionError() }
    }
}
