import Foundation
import Glibc
import Synchronization

/// One PostgreSQL server per test process, and a fresh database per test, so tests are isolated and can run in
/// parallel.
///
/// With `HERALD_TEST_DATABASE_URL` set, that server is used (the databases created are dropped at exit).
/// Otherwise an `EmbeddedPostgres` is started in a new temporary folder on first use, and stopped and removed
/// when the process exits.
public enum TemporaryPostgres {
    /// Creates a new, uniquely named, empty database and returns its conninfo.
    public static func freshDatabase() throws -> String {
        let server = try server.get()
        let name = "herald_test_\(getpid())_\(counter.add(1, ordering: .relaxed).newValue)"
        let admin = try PostgresConnection(conninfo: server.conninfo)
        try admin.executeScript(Query(unsafeSQL: "CREATE DATABASE " + (try admin.quoteIdentifier(name))))
        server.created.withLock { $0.append(name) }
        return try Conninfo.replacingDatabase(in: server.conninfo, with: name)
    }

    /// The conninfo of the server's maintenance database (for server-wide checks such as `pg_stat_activity`).
    public static func serverConninfo() throws -> String {
        try server.get().conninfo
    }

    private static let counter = Atomic<Int>(0)

    /// Started once, on first use; Swift initialises static properties exactly once, even under concurrency.
    private static let server: Result<TestServer, any Error> = Result {
        let server: TestServer
        if let url = ProcessInfo.processInfo.environment["HERALD_TEST_DATABASE_URL"], !url.isEmpty {
            server = TestServer(conninfo: url, embedded: nil)
        } else {
            var template = Array((NSTemporaryDirectory() + "/herald-pg-XXXXXX").utf8CString)
            guard let created = mkdtemp(&template) else {
                throw EmbeddedPostgresError(.prepareFolder, "mkdtemp failed: errno \(errno)")
            }
            let embedded = EmbeddedPostgres(
                folder: String(cString: created), options: .init(durable: false, maxConnections: 300))
            server = TestServer(conninfo: try embedded.start(), embedded: embedded)
        }
        atexit { TemporaryPostgres.cleanUp() }
        return server
    }

    /// Stops the embedded server and removes its folder, or drops the databases created on an outside server.
    private static func cleanUp() {
        guard case .success(let server) = server else { return }
        if let embedded = server.embedded {
            try? embedded.stop()
            try? FileManager.default.removeItem(atPath: embedded.folder)
            return
        }
        guard let admin = try? PostgresConnection(conninfo: server.conninfo) else { return }
        for name in server.created.withLock({ $0 }) {
            guard let quoted = try? admin.quoteIdentifier(name) else { continue }
            try? admin.executeScript(Query(unsafeSQL: "DROP DATABASE IF EXISTS \(quoted) WITH (FORCE)"))
        }
    }
}

/// The test server and the databases made on it.
private final class TestServer: Sendable {
    let conninfo: String
    let embedded: EmbeddedPostgres?
    let created = Mutex<[String]>([])

    init(conninfo: String, embedded: EmbeddedPostgres?) {
        self.conninfo = conninfo
        self.embedded = embedded
    }
}
