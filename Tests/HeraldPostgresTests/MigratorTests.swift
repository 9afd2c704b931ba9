import Foundation
import Testing

@testable import HeraldPostgres

@Suite struct MigratorTests {
    /// A folder of migration files, removed when the test ends.
    final class MigrationFolder {
        let url: URL

        init(_ files: [String: String]) throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "herald-migrations-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for (name, sql) in files { try write(name, sql) }
        }

        func write(_ name: String, _ sql: String) throws {
            try sql.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let files = [
        "0002_add_email.sql": "ALTER TABLE users ADD COLUMN email text;",
        "0001_create_users.sql": "CREATE TABLE users (id bigint PRIMARY KEY);\nCREATE INDEX users_id ON users (id);",
        "0010_seed.sql": "INSERT INTO users (id, email) VALUES (1, 'a@example.com');",
        ".keep": "",
    ]

    @Test func appliesInOrderRecordsAndIsIdempotent() throws {
        let folder = try MigrationFolder(Self.files)
        let connection = try freshConnection()
        let migrator = try Migrator(folder: folder.url)
        #expect(try migrator.status(on: connection).pending.map(\.version) == [1, 2, 10])
        let applied = try migrator.migrate(on: connection)
        #expect(applied.map(\.version) == [1, 2, 10])
        #expect(applied.map(\.name) == ["create_users", "add_email", "seed"])
        let status = try migrator.status(on: connection)
        #expect(status.isCurrent)
        #expect(status.applied.map(\.version) == [1, 2, 10])
        #expect(status.applied.allSatisfy { $0.checksum.count == 32 && $0.appliedAt.timeIntervalSinceNow < 60 })
        #expect(try migrator.migrate(on: connection).isEmpty)
        #expect(try connection.query(Query(name: "t.users", sql: "SELECT count(*) FROM users")).single().int(0) == 1)
    }

    @Test func newFileIsPendingThenApplied() throws {
        let folder = try MigrationFolder(Self.files)
        let connection = try freshConnection()
        try Migrator(folder: folder.url).migrate(on: connection)
        try folder.write("0011_add_name.sql", "ALTER TABLE users ADD COLUMN name text;")
        let migrator = try Migrator(folder: folder.url)
        #expect(try migrator.status(on: connection).pending.map(\.version) == [11])
        #expect(try migrator.migrate(on: connection).map(\.version) == [11])
    }

    @Test func failingMigrationLeavesNothingBehindAndStopsTheRun() throws {
        let folder = try MigrationFolder([
            "0001_ok.sql": "CREATE TABLE a (id int);",
            "0002_broken.sql": "CREATE TABLE b (id int); INSERT INTO missing VALUES (1);",
            "0003_later.sql": "CREATE TABLE c (id int);",
        ])
        let connection = try freshConnection()
        let migrator = try Migrator(folder: folder.url)
        let error = try #require(throws: MigrationError.self) { try migrator.migrate(on: connection) }
        #expect(error.kind == .failed(version: 2))
        #expect(error.underlying?.sqlState == "42P01")
        #expect(!error.description.contains("INSERT"))
        let status = try migrator.status(on: connection)
        #expect(status.applied.map(\.version) == [1])
        #expect(status.pending.map(\.version) == [2, 3])
        #expect(try connection.query(Query(name: "t.b", sql: "SELECT to_regclass('b') IS NULL")).single().bool(0))
    }

    @Test func editedAppliedMigrationIsAnError() throws {
        let folder = try MigrationFolder(Self.files)
        let connection = try freshConnection()
        try Migrator(folder: folder.url).migrate(on: connection)
        try folder.write("0002_add_email.sql", "ALTER TABLE users ADD COLUMN email varchar(200);")
        let migrator = try Migrator(folder: folder.url)
        #expect(try migrator.status(on: connection).modified == [2])
        #expect(try !migrator.status(on: connection).isCurrent)
        let error = try #require(throws: MigrationError.self) { try migrator.migrate(on: connection) }
        #expect(error.kind == .checksumMismatch(version: 2))
    }

    @Test(arguments: [
        "001_short.sql", "0001-dash.sql", "0001_Upper.sql", "0001_.sql", "0001_name.SQL", "0001_name.sql.bak",
        "notes.txt", "0001_spaced name.sql",
    ])
    func badFileNameIsRejected(name: String) throws {
        let folder = try MigrationFolder(["0001_fine.sql": "SELECT 1;", name: "SELECT 1;"])
        let error = try #require(throws: MigrationError.self) { try Migrator(folder: folder.url) }
        #expect(error.kind == .invalidFileName(name))
    }

    @Test func duplicateVersionIsRejected() throws {
        let folder = try MigrationFolder(["0001_one.sql": "SELECT 1;", "0001_other.sql": "SELECT 1;"])
        #expect(throws: MigrationError.self) { try Migrator(folder: folder.url) }
    }

    @Test func twoConcurrentMigratorsApplyEachMigrationOnce() async throws {
        let folder = try MigrationFolder([
            "0001_slow.sql": "CREATE TABLE jobs (id int); SELECT pg_sleep(0.3);",
            "0002_more.sql": "INSERT INTO jobs VALUES (1);",
        ])
        let conninfo = try TemporaryPostgres.freshDatabase()
        let pool = try PostgresPool(conninfo: conninfo, size: 2)
        defer { pool.close() }
        let migrator = try Migrator(folder: folder.url)
        let started = Counter()
        let runs = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<2 {
                group.addTask {
                    try await pool.withConnection { connection in
                        started.add()
                        return try migrator.migrate(on: connection).map(\.version)
                    }
                }
            }
            return try await group.reduce(into: [[Int]]()) { $0.append($1) }
        }
        #expect(started.value == 2)
        #expect(runs.sorted { $0.count < $1.count } == [[], [1, 2]])
        let rows = try PostgresConnection(conninfo: conninfo).query(
            Query(name: "t.jobs", sql: "SELECT (SELECT count(*) FROM jobs), (SELECT count(*) FROM herald_migrations)")
        ).single()
        #expect(try rows.int(0) == 1 && rows.int(1) == 2)
    }
}
