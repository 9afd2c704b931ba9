import HeraldCore

/// Encodes rows in COPY's text format (tab-separated, `\N` for NULL, backslash escapes) and sends them in chunks.
public final class CopyWriter {
    private static let chunkSize = 256 * 1024
    private unowned let connection: PostgresConnection
    /// Only this writer's own methods touch the buffer, one at a time: a row borrows it whole (`append`), so the
    /// per-access exclusivity check is left out (it was a check per cell on the workers' hot path).
    @exclusivity(unchecked) private var buffer: [UInt8] = []

    init(connection: PostgresConnection) {
        self.connection = connection
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    /// Appends one row; `nil` values become NULL.
    public func append(_ row: [(any PostgresEncodable)?]) throws {
        try append(texts: row.map { $0?.postgresText })
    }

    /// Appends one row of texts in PostgreSQL's input format; `nil` values become NULL. A hot path's COPY hands
    /// over plain strings: an array of existentials costs a box and a witness call per cell.
    public func append(texts row: [String?]) throws {
        var bytes: [UInt8] = []
        swap(&bytes, &buffer)
        defer { swap(&bytes, &buffer) }
        for index in row.indices {
            if index > 0 { bytes.append(0x09) }
            if let text = row[index] {
                try Self.escape(text, into: &bytes)
            } else {
                bytes.append(0x5C)  // \N
                bytes.append(0x4E)
            }
        }
        bytes.append(0x0A)
        if bytes.count >= Self.chunkSize {
            try connection.putCopyData(bytes)
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Sends what is buffered.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try connection.putCopyData(buffer)
        buffer.removeAll(keepingCapacity: true)
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
