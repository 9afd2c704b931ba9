import Foundation

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
