import Foundation

/// Applies `NNNN_name.sql` files in version order, each in its own transaction, recorded in
/// `herald_migrations`, under an advisory lock so that instances starting together do not race: the second
/// waits for the first and then finds nothing pending.
public struct Migrator: Sendable {
    /// The known migrations, in version order.
    public let migrations: [Migration]

    /// Loads every `.sql` file of `folder`; any other non-hidden file, or a bad name, is an error.
    public init(folder: URL) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw MigrationError(.unreadable(folder.path))
        }
        var migrations: [Migration] = []
        for fileName in names where !fileName.hasPrefix(".") {
            guard let (version, name) = Migration.parseFileName(fileName) else {
                throw MigrationError(.invalidFileName(fileName))
            }
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(fileName).path),
                let sql = String(data: data, encoding: .utf8)
            else { throw MigrationError(.unreadable(fileName)) }
            migrations.append(Migration(version: version, name: name, sql: sql))
        }
        try self.init(migrations: migrations)
    }

    /// Uses the given migrations; versions must be unique.
    public init(migrations: [Migration]) throws {
        let sorted = migrations.sorted { $0.version < $1.version }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.version == next.version {
            throw MigrationError(.duplicateVersion(next.version))
        }
        self.migrations = sorted
    }

    /// Applies what is pending and returns the migrations applied now (empty when up to date).
    @discardableResult
    public func migrate(on connection: PostgresConnection) throws -> [Migration] {
        try connection.query(Self.lock)
        defer { _ = try? connection.query(Self.unlock) }
        try connection.executeScript(Self.createTable)
        let status = try status(on: connection)
        if let version = status.modified.first { throw MigrationError(.checksumMismatch(version: version)) }
        for migration in status.pending {
            do {
                try connection.transaction { connection in
                    try connection.executeScript(
                        Query(unsafeSQL: migration.sql, name: "migration \(migration.version)"))
                    try connection.query(Self.record, [migration.version, migration.name, migration.sql])
                }
            } catch let error as PostgresError {
                throw MigrationError(.failed(version: migration.version), underlying: error)
            }
        }
        return status.pending
    }

    /// What is applied, pending and modified; reads only (before the first migration, everything is pending).
    public func status(on connection: PostgresConnection) throws -> MigrationStatus {
        guard try connection.query(Self.tableExists).single().bool(0) else {
            return MigrationStatus(applied: [], pending: migrations, modified: [])
        }
        let applied = try connection.query(Self.listApplied).map { row in
            AppliedMigration(
                version: try row.int("version"), name: try row.string("name"), checksum: try row.string("checksum"),
                appliedAt: try row.date("applied_at"))
        }
        let checksums = Dictionary(uniqueKeysWithValues: applied.map { ($0.version, $0.checksum) })
        var pending: [Migration] = []
        var modified: [Int] = []
        for migration in migrations {
            guard let recorded = checksums[migration.version] else {
                pending.append(migration)
                continue
            }
            // MD5 on the server keeps this module free of a hashing library; it only detects edits.
            let current = try connection.query(Self.checksum, [migration.sql]).single().string(0)
            if current != recorded { modified.append(migration.version) }
        }
        return MigrationStatus(applied: applied, pending: pending, modified: modified)
    }

    /// Advisory lock key: "herald" in ASCII, so other users of advisory locks are unlikely to collide.
    private static let lock = Query(name: "migrations.lock", sql: "SELECT pg_advisory_lock(114784919972964)")
    private static let unlock = Query(name: "migrations.unlock", sql: "SELECT pg_advisory_unlock(114784919972964)")
    private static let createTable = Query(
        name: "migrations.create_table",
        sql: """
            CREATE TABLE IF NOT EXISTS herald_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
    private static let tableExists = Query(
        name: "migrations.table_exists", sql: "SELECT to_regclass('herald_migrations') IS NOT NULL")
    private static let listApplied = Query(
        name: "migrations.list",
        sql: "SELECT version, name, checksum, applied_at FROM herald_migrations ORDER BY version")
    private static let checksum = Query(name: "migrations.checksum", sql: "SELECT md5($1)")
    private static let record = Query(
        name: "migrations.record",
        sql: "INSERT INTO herald_migrations (version, name, checksum) VALUES ($1, $2, md5($3))")
}
