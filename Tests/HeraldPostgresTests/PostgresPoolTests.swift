import Foundation
import Synchronization
import Testing

@testable import HeraldPostgres

@Suite struct PostgresPoolTests {
    static let sleep = Query(name: "test.sleep", sql: "SELECT pg_sleep($1::float8)")
    static let holdGate = Query(name: "test.hold_gate", sql: "SELECT pg_advisory_lock(4242)")
    static let openGate = Query(name: "test.open_gate", sql: "SELECT pg_advisory_unlock(4242)")
    static let passGate = Query(
        name: "test.pass_gate", sql: "SELECT pg_advisory_lock_shared(4242), pg_advisory_unlock_shared(4242)")
    static let backend = Query(name: "test.backend", sql: "SELECT pg_backend_pid()")
    static let poolBackends = Query(
        name: "test.pool_backends",
        sql: """
            SELECT pid FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
            """)
    static let terminate = Query(name: "test.terminate", sql: "SELECT pg_terminate_backend($1::int)")
    /// Whether a local process has exited: gone from `/proc`, or a zombie not yet reaped.
    static func hasExited(_ pid: Int) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        guard let end = status.lastIndex(of: ")") else { return false }
        return status[status.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    static let stillAlive = Query(
        name: "test.still_alive", sql: "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::int[])")

    @Test func manyConcurrentCallsOnFewConnectionsAllComplete() async throws {
        let pool = try PostgresPool(conninfo: try TemporaryPostgres.freshDatabase(), size: 4)
        defer { pool.close() }
        let pids = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in 0..<64 {
                group.addTask {
                    try await pool.withConnection { connection in
                        let row = try connection.query(
                            Query(name: "test.echo", sql: "SELECT $1::int + 0, pg_backend_pid()"), [value]
                        ).single()
                        #expect(try row.int(0) == value)
                        return try row.int(1)
                    }
                }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(pids.count <= 4)
        // A worker hands its result back before it marks itself idle, so the last one may still count as busy.
        #expect(await waitUntil(timeout: .seconds(60)) { pool.stats.busy == 0 })
        let stats = pool.stats
        #expect(stats.totalAcquired == 64)
        #expect(stats.size == 4 && stats.busy == 0 && stats.waiting == 0)
    }

    @Test func workRunsOnPoolThreadsAndLeavesTheCooperativePoolFree() async throws {
        let conninfo = try TemporaryPostgres.freshDatabase()
        let pool = try PostgresPool(PostgresPool.Configuration(conninfo: conninfo, size: 4, threadName: "pg-test"))
        defer { pool.close() }
        // The four pool connections wait in libpq on a lock this connection holds until the test lets them go,
        // however long a loaded machine takes to get there.
        let holder = try PostgresConnection(conninfo: conninfo)
        try holder.execute(Self.holdGate)
        let started = Counter()
        async let waits = withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await pool.withConnection { connection in
                        started.add()
                        try connection.execute(Self.passGate)
                        return PostgresPool.currentWorkerName ?? ""
                    }
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        // Generous: when the whole suite runs in parallel, other tests may hold the cooperative threads for a while
        // before these four tasks get to submit their work.
        #expect(await waitUntil(timeout: .seconds(600)) { started.value == 4 })
        // All four connections are blocked in libpq now; cooperative tasks must still run meanwhile.
        await withTaskGroup(of: Int.self) { group in
            for value in 0..<8 { group.addTask { value * 2 } }
            await group.waitForAll()
        }
        #expect(pool.stats.busy == 4)
        #expect(PostgresPool.currentWorkerName == nil)
        try holder.execute(Self.openGate)
        let names = try await waits
        #expect(Set(names) == ["pg-test-1", "pg-test-2", "pg-test-3", "pg-test-4"])
    }

    @Test func blockingEntryWorksFromPlainThreads() throws {
        let pool = try PostgresPool(conninfo: try TemporaryPostgres.freshDatabase(), size: 2)
        defer { pool.close() }
        let total = Counter()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let value = try? pool.withConnectionBlocking { connection in
                try connection.query(Query(name: "test.square", sql: "SELECT $1::int * $1::int"), [index]).single().int(
                    0)
            }
            total.add(value ?? -1_000)
        }
        #expect(total.value == (0..<16).reduce(0) { $0 + $1 * $1 })
    }

    @Test func terminatedBackendsFailTheCallInFlightRetryablyAndThenRecover() async throws {
        let conninfo = try TemporaryPostgres.freshDatabase()
        let pool = try PostgresPool(conninfo: conninfo, size: 3)
        defer { pool.close() }
        let admin = try PostgresConnection(conninfo: conninfo)
        let activeSleeps = Query(
            name: "test.active",
            sql: """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND query LIKE '%pg_sleep%' AND state = 'active'
                  AND pid <> pg_backend_pid()
                """)
        let inFlight = Task { try await pool.withConnection { connection in try connection.query(Self.sleep, [30]) } }
        #expect(try await waitUntil { try admin.query(activeSleeps).single().int(0) == 1 })
        let victims = try admin.query(Self.poolBackends).map { try $0.int(0) }
        #expect(victims.count == 3)
        for pid in victims { try admin.query(Self.terminate, [pid]) }
        let error = await #expect(throws: PostgresError.self) { try await inFlight.value }
        #expect(error?.kind == .connectionLost)
        #expect(error?.isRetryable == true)
        // pg_terminate_backend only signals. A backend leaves pg_stat_activity before its process exits and its
        // socket closes, so the wait is for the processes themselves: once they are gone (or zombies, whose sockets
        // are closed), every later call gets a working session.
        let victimList = "{" + victims.map(String.init).joined(separator: ",") + "}"
        #expect(try await waitUntil { try admin.query(Self.stillAlive, [victimList]).single().int(0) == 0 })
        #expect(await waitUntil { victims.allSatisfy(Self.hasExited) })
        var served = Set<Int>()
        for _ in 0..<6 {
            served.insert(try await pool.withConnection { try $0.query(Self.backend).single().int(0) })
        }
        #expect(served.isDisjoint(with: victims))
        #expect(pool.stats.reconnects >= 1)
    }

    @Test func unreachableServerFailsFastThenRecoversWithoutRestart() async throws {
        let folder = NSTemporaryDirectory() + "herald-pool-\(UUID().uuidString.prefix(8))"
        let server = EmbeddedPostgres(folder: folder, options: .init(durable: false))
        defer {
            try? server.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let pool = try PostgresPool(conninfo: try await onOwnThread { try server.start() }, size: 2)
        defer { pool.close() }
        try await onOwnThread { try server.stop() }
        let error = await #expect(throws: PostgresError.self) {
            try await pool.withConnection { try $0.query(Self.backend) }
        }
        #expect(error?.isRetryable == true)
        _ = try await onOwnThread { try server.start() }
        #expect(
            await waitUntil {
                (try? await pool.withConnection { try $0.query(Self.backend).single().int(0) }) != nil
            })
    }

    @Test func closeDrainsQueuedWorkThenRejectsNewWork() async throws {
        let pool = try PostgresPool(conninfo: try TemporaryPostgres.freshDatabase(), size: 1)
        let finished = Counter()
        let tasks = (0..<5).map { _ in
            Task {
                try await pool.withConnection { connection in
                    try connection.query(Self.sleep, [0.02])
                    finished.add()
                }
            }
        }
        #expect(await waitUntil { pool.stats.totalAcquired >= 1 })
        pool.close()
        for task in tasks { try? await task.value }
        #expect(finished.value + pool.stats.waiting == 5)
        let error = await #expect(throws: PostgresError.self) { try await pool.withConnection { _ in 1 } }
        #expect(error?.kind == .poolClosed)
    }
}
