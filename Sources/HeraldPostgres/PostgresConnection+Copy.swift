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
                copied = Self.makeResult(result).affectedRows
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

/// Encodes rows in COPY's text format (tab-separated, `\N` for NULL, backslash escapes) and sends them in chunks.
public final class CopyWriter {
    private static let chunkSize = 256 * 1024
    private unowned let connection: PostgresConnection
    private var buffer: [UInt8] = []

    init(connection: PostgresConnection) {
        self.connection = connection
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    /// Appends one row; `nil` values become NULL.
    public func append(_ row: [(any PostgresEncodable)?]) throws {
        for (index, value) in row.enumerated() {
            if index > 0 { buffer.append(0x09) }
            guard let value else {
                buffer.append(contentsOf: [0x5C, 0x4E])  // \N
                continue
            }
            try Self.escape(value.postgresText, into: &buffer)
        }
        buffer.append(0x0A)
        if buffer.count >= Self.chunkSize { try flush() }
    }

    /// Sends what is buffered.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try connection.putCopyData(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Escapes the characters that COPY's text format gives meaning to: backslash, tab, newline, carriage return.
    static func escape(_ text: String, into buffer: inout [UInt8]) throws {
        for byte in text.utf8 {
            switch byte {
            case 0x5C: buffer.append(contentsOf: [0x5C, 0x5C])
            case 0x09: buffer.append(contentsOf: [0x5C, 0x74])
            case 0x0A: buffer.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: buffer.append(contentsOf: [0x5C, 0x72])
            case 0x00: throw PostgresError(kind: .invalidValue, message: "COPY value contains a NUL byte")
            default: buffer.append(byte)
            }
        }
    }
}
