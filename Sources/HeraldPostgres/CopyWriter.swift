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
    /// Most values have none of them and are appended in one copy; only the others go byte by byte.
    static func escape(_ text: String, into buffer: inout [UInt8]) throws {
        var text = text
        try text.withUTF8 { bytes in
            var plain = true
            for byte in bytes where byte == 0x5C || byte < 0x0E {
                plain = false
                break
            }
            if plain {
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
