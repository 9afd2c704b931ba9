import HeraldCore

/// Encodes rows in COPY's text format (tab-separated, `\N` for NULL, backslash escapes) and sends them in chunks.
public final class CopyWriter {
    private static let chunkSize = 256 * 1024
    private unowned let connection: PostgresConnection
    /// Only this writer's own methods touch the buffer, one at a time, so the per-access exclusivity check is left
    /// out (it was a check per cell on the workers' hot path).
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    /// Whether a cell of the current row was written, so the next one is preceded by a tab.
    private var inRow = false

    init(connection: PostgresConnection) {
        self.connection = connection
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    /// Appends one row; `nil` values become NULL.
    public func append(_ row: [(any PostgresEncodable)?]) throws {
        try append(texts: row.map { $0?.postgresText })
    }

    /// Appends one row of texts in PostgreSQL's input format; `nil` values become NULL.
    public func append(texts row: [String?]) throws {
        for text in row { try cell(text) }
        try endRow()
    }

    /// Appends the next cell of the row being written, in PostgreSQL's input format; `nil` is NULL. A hot path
    /// writes its rows cell by cell: an array of the row's texts costs an allocation per row, an array of
    /// existentials a box and a witness call per cell.
    public func cell(_ text: String?) throws {
        guard let text else { return null() }
        separate()
        try Self.escape(text, into: &buffer)
    }

    /// Appends the next cell from UTF-8 text held as bytes (a push body, serialized JSON): ASCII with nothing to
    /// escape is appended as it is, without first becoming a string; other bytes go as `cell(_:)` writes the
    /// string `String(decoding:as:)` makes of them, so invalid UTF-8 is repaired exactly as before.
    public func cell(utf8 bytes: [UInt8]) throws {
        separate()
        try Self.escape(utf8: bytes, into: &buffer)
    }

    /// Appends the next cell as a decimal integer, written straight into the buffer (digits need no escape).
    public func cell(_ value: Int) {
        separate()
        DecimalDigits.append(value, to: &buffer)
    }

    /// Appends the next cell as an integer, or NULL.
    public func cell(_ value: Int?) {
        guard let value else { return null() }
        cell(value)
    }

    /// Starts the next cell: a tab after the row's previous one.
    private func separate() {
        if inRow { buffer.append(0x09) } else { inRow = true }
    }

    /// Appends a NULL cell (`\N`).
    private func null() {
        separate()
        buffer.append(0x5C)
        buffer.append(0x4E)
    }

    /// Ends the row being written; sends the buffer once it holds a chunk.
    public func endRow() throws {
        buffer.append(0x0A)
        inRow = false
        if buffer.count >= Self.chunkSize {
            try connection.putCopyData(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Sends what is buffered.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try connection.putCopyData(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// `escape` for UTF-8 held as bytes: plain ASCII is appended as it is; anything else is escaped as the string
    /// `String(decoding:as:)` makes of it.
    static func escape(utf8 bytes: [UInt8], into buffer: inout [UInt8]) throws {
        let plain = bytes.withUnsafeBytes { !ByteScan.contains($0, 0x5C, 0x5C, below: 0x0E, highBytes: true) }
        guard plain else { return try escape(String(decoding: bytes, as: UTF8.self), into: &buffer) }
        buffer.append(contentsOf: bytes)
    }

    /// Escapes the characters that COPY's text format gives meaning to: backslash, tab, newline, carriage return.
    /// Most values have none of them and are appended in one copy; only the others go byte by byte.
    static func escape(_ text: String, into buffer: inout [UInt8]) throws {
        var text = text
        try text.withUTF8 { bytes in
            if !ByteScan.contains(UnsafeRawBufferPointer(bytes), 0x5C, 0x5C, below: 0x0E) {
                buffer.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
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
}
