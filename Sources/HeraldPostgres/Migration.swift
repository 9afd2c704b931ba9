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

/// A migration as recorded in `herald_migrations`.
public struct AppliedMigration: Sendable, Hashable {
    /// The migration's number.
    public let version: Int
    /// The migration's name.
    public let name: String
    /// MD5 (hex) of the SQL text when it was applied.
    public let checksum: String
    /// When it was applied.
    public let appliedAt: Date
}

/// Which migrations are applied and which are still to run.
public struct MigrationStatus: Sendable {
    /// Recorded migrations, in version order (including any this build does not know).
    public let applied: [AppliedMigration]
    /// Known migrations not yet applied, in version order.
    public let pending: [Migration]
    /// Applied migrations whose file has changed since (an error: applied migrations must never be edited).
    public let modified: [Int]

    /// Whether the database is exactly at this build's schema.
    public var isCurrent: Bool { pending.isEmpty && modified.isEmpty }
}

/// Why migrations could not be loaded or applied.
public struct MigrationError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// A file in the folder is not named `NNNN_name.sql`.
        case invalidFileName(String)
        /// Two files share a version number.
        case duplicateVersion(Int)
        /// The folder or a file could not be read (or is not UTF-8).
        case unreadable(String)
        /// An applied migration's file differs from what was applied.
        case checksumMismatch(version: Int)
        /// A migration failed; nothing of it was applied.
        case failed(version: Int)
    }

    /// What went wrong.
    public let kind: Kind
    /// The database error behind `.failed`, if any.
    public let underlying: PostgresError?

    init(_ kind: Kind, underlying: PostgresError? = nil) {
        self.kind = kind
        self.underlying = underlying
    }

    /// File names and versions only.
    public var description: String {
        switch kind {
        case .invalidFileName(let name): "migration file name '\(name)' does not match NNNN_name.sql"
        case .duplicateVersion(let version): "two migration files have version \(version)"
        case .unreadable(let path): "cannot read migrations at \(path)"
        case .checksumMismatch(let version): "applied migration \(version) was edited; add a new migration instead"
        case .failed(let version): "migration \(version) failed" + (underlying.map { ": \($0)" } ?? "")
        }
    }

    /// The description plus the database's message.
    public var debugDescription: String {
        underlying.map { description + " (" + $0.debugDescription + ")" } ?? description
    }
}
