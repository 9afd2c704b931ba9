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
