import Foundation
import Synchronization

/// A PostgreSQL cluster that Herald runs itself, in a folder of its own, when no `DATABASE_URL` is given.
///
/// The folder holds the data directory (`data/`), the server log (`postgres.log`) and the unix socket. The
/// server listens on that socket and on 127.0.0.1 on a free port; Herald connects through the socket. Every
/// connection needs the password kept in `pgpass` (see `EmbeddedPostgres+Password.swift`). A cluster left
/// running, or left with a stale `postmaster.pid` by a crash, is reused on the next start. As root, the server
/// runs as the `postgres` system user.
public final class EmbeddedPostgres: Sendable {
    /// Tuning for the cluster.
    public struct Options: Sendable {
        /// `false` skips fsync in initdb and the server: much faster, but a machine crash loses data (tests only).
        public var durable: Bool
        /// The server's `max_connections`.
        public var maxConnections: Int
        /// More server settings by name, such as `shared_preload_libraries`, passed with `-c` at start (they do not
        /// apply to a server that is adopted already running). A value holding a quote or a space is refused.
        public var settings: [String: String]

        /// Durable, with PostgreSQL's usual connection limit.
        public init(durable: Bool = true, maxConnections: Int = 100, settings: [String: String] = [:]) {
            self.durable = durable
            self.maxConnections = maxConnections
            self.settings = settings
        }
    }

    /// Settings a durable cluster starts with unless `Options.settings` names them: Herald writes several rows per
    /// event, and with PostgreSQL's defaults (128 MB of shared buffers, a checkpoint every 1 GB of WAL) a steady
    /// load of a few thousand events a second forced a checkpoint every 6–16 seconds. Each checkpoint makes the
    /// first change to every page after it log the whole page again, and its final sync holds up the commits
    /// behind it. Fewer checkpoints cost a longer crash recovery (up to `max_wal_size` of WAL to replay) and up to
    /// that much disk for WAL during a burst.
    public static let writeSettings = [
        "shared_buffers": "512MB", "max_wal_size": "8GB", "checkpoint_timeout": "15min",
    ]

    /// The superuser and the database created for Herald.
    public static let user = "herald"
    /// The database Herald uses.
    public static let database = "herald"

    /// The folder that holds the cluster.
    public let folder: String
    /// The cluster's data directory inside `folder`.
    public var dataDirectory: String { folder + "/data" }
    /// The server log file inside `folder`.
    public var logFile: String { folder + "/postgres.log" }
    let options: Options
    private let runningPort = Mutex<Int?>(nil)

    /// A cluster kept in `folder` (created when missing); nothing happens until `start()`.
    public init(folder: String, options: Options = Options()) {
        self.folder = URL(fileURLWithPath: folder).standardizedFileURL.path
        self.options = options
    }

    /// The TCP port of the running server, once started.
    public var port: Int? { runningPort.withLock { $0 } }

    /// The process id of the running server's postmaster, from the first line of `postmaster.pid`.
    public var serverProcessID: Int32? {
        guard port != nil, let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)
        else { return nil }
        return text.split(separator: "\n").first.flatMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Initializes the cluster if needed, starts it (or adopts a server already running on it), creates the
    /// `herald` database if missing, and returns its conninfo.
    @discardableResult
    public func start() throws -> String {
        let command = try ServerCommand.forCurrentUser()
        let binaries = try Self.findBinaries(command: command)
        try prepareFolder(command: command)
        if !FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") {
            try initializeCluster(command: command, binaries: binaries)
        }
        let port: Int
        if let adopted = runningServerPort() {
            port = adopted
        } else {
            removeStaleLockFiles()
            port = try choosePort()
            try command.run(
                binaries + "/pg_ctl",
                ["-D", dataDirectory, "-l", logFile, "-w", "-t", "60", "-o", try serverOptions(port: port), "start"],
                in: folder, failing: .start)
            try? String(port).write(toFile: folder + "/port", atomically: true, encoding: .utf8)
        }
        try requirePassword(port: port, command: command)
        runningPort.withLock { $0 = port }
        try createDatabaseIfMissing(port: port)
        return conninfo(port: port, database: Self.database)
    }

    /// Stops the server (fast shutdown: open sessions are ended, data is flushed). Does nothing when stopped.
    public func stop() throws {
        let command = try ServerCommand.forCurrentUser()
        let binaries = try Self.findBinaries(command: command)
        runningPort.withLock { $0 = nil }
        guard runningServerPort() != nil else { return }
        try command.run(
            binaries + "/pg_ctl", ["-D", dataDirectory, "-m", "fast", "-w", "stop"], in: folder, failing: .stop)
    }

    /// The conninfo of `database` on the running server.
    public func conninfo(database: String) -> String? {
        port.map { conninfo(port: $0, database: database) }
    }

    /// Connections go through the server's unix socket in `folder` when it is there: a round trip through it costs
    /// both ends less CPU than one through loopback TCP, which the kernel routes like any other packet. A server
    /// without the socket (a folder path too long for one, or a server adopted already running without it) is
    /// reached on 127.0.0.1. Both need the password (`pg_hba.conf` lists `local` and `host` alike).
    func conninfo(port: Int, database: String) -> String {
        Conninfo.format([
            ("host", socketUsable(port: port) ? folder : "127.0.0.1"), ("port", String(port)), ("user", Self.user),
            ("dbname", database), ("passfile", passwordFile),
        ])
    }

    /// The path of the server's unix socket on `port`.
    func socketPath(port: Int) -> String { folder + "/.s.PGSQL.\(port)" }

    /// Whether the server can be asked to listen on a socket in `folder`: socket paths are limited to 107 bytes,
    /// and the folder must survive the shell and the list parsing of `unix_socket_directories`.
    func socketPossible(port: Int) -> Bool {
        socketPath(port: port).utf8.count < 107 && !folder.contains(where: { "'\",\\".contains($0) })
    }

    /// Whether the running server's socket on `port` exists, so that a conninfo may name it.
    func socketUsable(port: Int) -> Bool {
        guard socketPossible(port: port) else { return false }
        var status = stat()
        return lstat(socketPath(port: port), &status) == 0 && (status.st_mode & S_IFMT) == S_IFSOCK
    }

    /// The settings the server starts with: the write settings for a durable cluster, then `Options.settings`.
    var serverSettings: [String: String] {
        options.durable ? Self.writeSettings.merging(options.settings) { $1 } : options.settings
    }

    /// `postgres` command-line options; pg_ctl hands them to a shell, hence the quoting of the socket folder.
    private func serverOptions(port: Int) throws -> String {
        var text = "-p \(port) -c listen_addresses=127.0.0.1 -c max_connections=\(options.maxConnections)"
        text += " -c password_encryption=scram-sha-256"
        text += " -c unix_socket_directories='\(socketPossible(port: port) ? folder : "")'"
        if !options.durable { text += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off" }
        for (name, value) in serverSettings.sorted(by: { $0.key < $1.key }) {
            let unsafe = { (text: String) in text.isEmpty || text.contains(where: { "'\"\\ ;$`".contains($0) }) }
            guard !unsafe(name), !unsafe(value) else {
                throw EmbeddedPostgresError(.start, "the server setting \(name) cannot be passed on the command line")
            }
            text += " -c \(name)=\(value)"
        }
        return text
    }

    private func createDatabaseIfMissing(port: Int) throws {
        do {
            let connection = try PostgresConnection(conninfo: conninfo(port: port, database: "postgres"))
            let exists = try connection.query(Self.databaseExists, [Self.database]).single().bool(0)
            guard !exists else { return }
            try connection.executeScript(
                Query(unsafeSQL: "CREATE DATABASE " + (try connection.quoteIdentifier(Self.database))))
        } catch let error as PostgresError where error.sqlState == "42P04" {
            return  // another instance created it first
        } catch let error as PostgresError {
            throw EmbeddedPostgresError(.createDatabase, error.debugDescription)
        }
    }

    private static let databaseExists = Query(
        name: "embedded.database_exists", sql: "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
}
