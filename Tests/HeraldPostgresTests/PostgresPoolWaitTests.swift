import Foundation
import Synchronization
import Testing

@testable import HeraldPostgres

/// The pool's deadlines: a blocking caller waits at most `maximumWait` for a connection and its work then never
/// runs, and every session carries the configured server timeouts.
@Suite struct PostgresPoolWaitTests {
    static let sleep = Query(name: "test.wait_sleep", sql: "SELECT pg_sleep($1::float8)")

    static func pool(size: Int, wait: Duration?, parameters: [(String, String)] = []) throws -> PostgresPool {
        var configuration = PostgresPool.Configuration(conninfo: try TemporaryPostgres.freshDatabase(), size: size)
        configuration.maximumWait = wait
        configuration.sessionParameters = parameters.map { (name: $0.0, value: $0.1) }
        return try PostgresPool(configuration)
    }

    @Test func aCallerThatFindsNoFreeConnectionGivesUpAndItsWorkNeverRuns() throws {
        let pool = try Self.pool(size: 1, wait: .milliseconds(200))
        defer { pool.close() }
        let holding = DispatchSemaphore(value: 0)
        let held = DispatchSemaphore(value: 0)
        Thread {
            _ = try? pool.withConnectionBlocking { connection in
                holding.signal()
                _ = try connection.query(Self.sleep, [1.5])
            }
            held.signal()
        }.start()
        #expect(holding.wait(timeout: .now() + 10) == .success)

        let ran = Atomic<Bool>(false)
        let started = ContinuousClock.now
        #expect {
            try pool.withConnectionBlocking { _ in ran.store(true, ordering: .relaxed) }
        } throws: { ($0 as? PostgresError)?.kind == .poolTimeout }
        let waited = started.duration(to: .now)
        #expect(waited >= .milliseconds(200) && waited < .seconds(1), "waited \(waited)")

        #expect(held.wait(timeout: .now() + 10) == .success)
        // The connection is free again: the next call runs, and the abandoned one still has not.
        #expect(try pool.withConnectionBlocking(maximumWait: .seconds(5)) { _ in 7 } == 7)
        let abandonedRan = ran.load(ordering: .relaxed)
        #expect(!abandonedRan)
        #expect(PostgresError(kind: .poolTimeout, message: "").isRetryable)
    }

    @Test func aCallThatStartedIsWaitedForPastTheDeadline() throws {
        let pool = try Self.pool(size: 1, wait: .milliseconds(100))
        defer { pool.close() }
        // The work itself outlives the wait: once a connection took it, the caller gets its result.
        let value = try pool.withConnectionBlocking { connection in
            _ = try connection.query(Self.sleep, [0.4])
            return 42
        }
        #expect(value == 42)
    }

    @Test func sessionsCarryTheConfiguredTimeouts() throws {
        let pool = try Self.pool(
            size: 1, wait: nil, parameters: [("statement_timeout", "150"), ("lock_timeout", "2500")])
        defer { pool.close() }
        let shown = try pool.withConnectionBlocking { connection in
            (
                try connection.query(Query(unsafeSQL: "SHOW statement_timeout")).single().string(0),
                try connection.query(Query(unsafeSQL: "SHOW lock_timeout")).single().string(0)
            )
        }
        #expect(shown.0 == "150ms")
        #expect(shown.1 == "2500ms")
        #expect {
            try pool.withConnectionBlocking { connection in _ = try connection.query(Self.sleep, [2]) }
        } throws: { ($0 as? PostgresError)?.kind == .queryCanceled }
        // The session survives its cancelled statement.
        #expect(try pool.withConnectionBlocking { try $0.query(Query(unsafeSQL: "SELECT 1")).single().int(0) } == 1)
    }

    @Test func serverParametersMustBePlainWords() {
        #expect(throws: PostgresError.self) {
            try Conninfo.addingServerParameters([("statement_timeout", "1 -c x=y")], to: "dbname=x")
        }
        let added = try? Conninfo.addingServerParameters([("lock_timeout", "5000")], to: "dbname=x options='-c a=b'")
        #expect(added == "dbname='x' options='-c a=b -c lock_timeout=5000'")
    }

    @Test func serverOptionsComeFromTheConninfoOrElseFromPGOPTIONS() throws {
        func options(_ conninfo: String, _ environment: [String: String]) throws -> String? {
            try Conninfo.sessionSettings(for: conninfo, environment: environment).first { $0.key == "options" }?.value
        }
        let fromEnvironment = ["PGOPTIONS": "-c plan_cache_mode=force_generic_plan"]
        let cost = "-c random_page_cost=1.1 -c max_parallel_workers_per_gather=0"
        #expect(
            try options("dbname=x", fromEnvironment)
                == "\(cost) -c plan_cache_mode=force_generic_plan -c DateStyle=ISO -c TimeZone=UTC")
        #expect(
            try options("dbname=x options='-c a=b'", fromEnvironment)
                == "\(cost) -c a=b -c DateStyle=ISO -c TimeZone=UTC")
        #expect(try options("dbname=x", [:]) == "\(cost) -c DateStyle=ISO -c TimeZone=UTC")
    }

    /// A session plans with `random_page_cost` 1.1 unless the conninfo's options choose another value.
    @Test func sessionsPlanKeyLookupsAsIndexLookupsUnlessTheOptionsSayOtherwise() throws {
        #expect(try sessionSetting("random_page_cost", options: nil) == "1.1")
        #expect(try sessionSetting("random_page_cost", options: "3") == "3")
    }

    /// A session plans without parallel workers unless the conninfo's options allow them.
    @Test func sessionsPlanWithoutParallelWorkersUnlessTheOptionsSayOtherwise() throws {
        #expect(try sessionSetting("max_parallel_workers_per_gather", options: nil) == "0")
        #expect(try sessionSetting("max_parallel_workers_per_gather", options: "2") == "2")
    }

    /// The server parameter `name` as a session on a fresh database sees it, with `value` set in the conninfo's
    /// options when given.
    private func sessionSetting(_ name: String, options value: String?) throws -> String {
        let conninfo = try TemporaryPostgres.freshDatabase()
        let target = try value.map { try Conninfo.addingServerParameters([(name, $0)], to: conninfo) }
        let connection = try PostgresConnection(conninfo: target ?? conninfo)
        return try connection.query(Query(unsafeSQL: "SHOW \(name)", name: "t.show_\(name)")).single().string(0)
    }

    @Test func sessionsKeepTheirPeerAliveChecked() throws {
        let settings = try Conninfo.sessionSettings(for: "dbname=x keepalives_idle=60")
        let byKey = Dictionary(settings.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        #expect(byKey["keepalives"] == "1")
        #expect(byKey["keepalives_idle"] == "60")
        #expect(byKey["keepalives_count"] == "3")
    }
}
