import Foundation
import HeraldPostgres

/// The database `herald serve` talks to: the one in `DATABASE_URL`, or an embedded cluster it owns.
struct DatabaseSetup {
    /// libpq connection string.
    let conninfo: String
    /// The embedded cluster to stop at shutdown, when Herald started one.
    let embedded: EmbeddedPostgres?

    /// Connects to `config.databaseURL`, or starts (or reuses) the embedded cluster under the data folder with
    /// `options`.
    static func start(
        _ config: ServiceConfig, embeddedOptions options: EmbeddedPostgres.Options = EmbeddedPostgres.Options()
    ) throws -> DatabaseSetup {
        try secureDataFolder(config.dataDirectory)
        if let url = config.databaseURL {
            return DatabaseSetup(conninfo: url, embedded: nil)
        }
        let folder = URL(fileURLWithPath: config.dataDirectory).standardizedFileURL.appendingPathComponent("pg").path
        let cluster = EmbeddedPostgres(folder: folder, options: options)
        return DatabaseSetup(conninfo: try cluster.start(), embedded: cluster)
    }

    /// Creates the data folder, or closes an existing one, to everyone but its owner: it holds the admin key, the
    /// client token keys and the embedded database's password. (As root, the embedded server's account is later
    /// given the right to pass through it, nothing more.)
    static func secureDataFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // As root, keep the pass-through right an earlier start gave the server account, so a running
            // embedded server never loses its way to its socket folder, not even for a moment.
            let current = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
            let mode = geteuid() == 0 ? 0o700 | (current & 0o001) : 0o700
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        } catch {
            throw ServiceStartError(message: "HERALD_DATA_DIR: cannot create or restrict the data folder")
        }
    }

    /// The migrations folder: the configured one, else `$HERALD_SQL_DIR`, `./sql`, or `sql/` beside the binary's
    /// build or install location.
    static func migrationsFolder(_ config: ServiceConfig, environment: [String: String]) throws -> URL {
        var candidates: [String] = []
        if let dir = config.migrationsDirectory { candidates.append(dir) }
        if let dir = environment["HERALD_SQL_DIR"] { candidates.append(dir) }
        candidates.append("sql")
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("sql").path)
            candidates.append(folder.appendingPathComponent("share/herald/sql").path)
            folder = folder.deletingLastPathComponent()
        }
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return URL(fileURLWithPath: candidate)
            }
            if config.migrationsDirectory == candidate {
                throw ServiceStartError(message: "HERALD_MIGRATIONS_DIR: no such folder")
            }
        }
        throw ServiceStartError(message: "cannot find the sql/ migrations folder; set HERALD_MIGRATIONS_DIR")
    }
}
