import Foundation

/// One forward-only schema change, read from a file named `NNNN_name.sql`.
public struct Migration: Sendable, Hashable {
    /// The number that orders migrations (`NNNN`).
    public let version: Int
    /// The name part of the file name, without the number and extension.
    public let name: String
    /// The SQL text, run as one script inside one transaction.
    public let sql: String

    /// A migration from its parts.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// Parses `NNNN_name.sql`: four digits, an underscore, then lowercase letters, digits and underscores.
    static func parseFileName(_ fileName: String) -> (version: Int, name: String)? {
        let bytes = Array(fileName.utf8)
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        let isLower = { (byte: UInt8) in byte >= 0x61 && byte <= 0x7A }
        guard fileName.hasSuffix(".sql"), bytes.count > 9, bytes[0..<4].allSatisfy(isDigit), bytes[4] == 0x5F
        else { return nil }
        let nameBytes = bytes[5..<(bytes.count - 4)]
        guard !nameBytes.isEmpty, nameBytes.allSatisfy({ isDigit($0) || isLower($0) || $0 == 0x5F }) else {
            return nil
        }
        return (Int(String(decoding: bytes[0..<4], as: UTF8.self))!, String(decoding: nameBytes, as: UTF8.self))
    }
}
