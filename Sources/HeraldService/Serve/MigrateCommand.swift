import Foundation
import HeraldPostgres

/// `herald migrate` and `herald migrate status`.
enum MigrateCommand {
    static func run(arguments: [String], config: ServiceConfig, environment: [String: String]) throws -> Int32 {
        let database = try DatabaseSetup.start(config)
        defer { try? database.embedded?.stop() }
        let migrator = try Migrator(folder: DatabaseSetup.migrationsFolder(config, environment: environment))
        if arguments.first == "status" {
            let connection = try PostgresConnection(conninfo: database.conninfo)
            let status = try migrator.status(on: connection)
            var lines: [String] = []
            for migration in status.applied {
                let flag = status.modified.contains(migration.version) ? "  MODIFIED since applied" : ""
                lines.append(String(format: "applied  %04d_%@%@", migration.version, migration.name, flag))
            }
            for migration in status.pending {
                lines.append(String(format: "pending  %04d_%@", migration.version, migration.name))
            }
            StandardOutput.write(lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n"))
            return status.isCurrent ? 0 : 1
        }
        let applied = try apply(migrator, conninfo: database.conninfo)
        StandardOutput.write(
            applied.isEmpty
                ? "database is current\n"
                : applied.map { String(format: "applied %04d_%@", $0.version, $0.name) }.joined(separator: "\n")
                    + "\n")
        return 0
    }

    /// Applies pending migrations over a connection of its own, under the migrator's advisory lock, then makes
    /// sure the day partitions of today and the next days exist (a database left alone for days gets them here,
    /// before anything is stored).
    static func apply(_ migrator: Migrator, conninfo: String) throws -> [Migration] {
        let connection = try PostgresConnection(conninfo: conninfo)
        let applied = try migrator.migrate(on: connection)
        try RetentionRepository.ensurePartitions(daysAhead: partitionDaysAhead, on: connection)
        return applied
    }

    /// Day partitions kept ready ahead of today.
    static let partitionDaysAhead = 3
}
