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
