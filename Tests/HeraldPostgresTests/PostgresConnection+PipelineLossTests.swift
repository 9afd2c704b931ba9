import Foundation
import Synchronization
import Testing

@testable import HeraldPostgres

/// A pipeline whose backend dies halfway must end in an error, not wait for a sync point that never comes.
@Suite struct PipelineConnectionLossTests {
    static let lock = Query(name: "test.advisory_lock", sql: "SELECT pg_advisory_lock($1::bigint)")
    static let waiting = Query(
        name: "test.advisory_waiter",
        sql: """
            SELECT pid FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted AND ((classid::bigint << 32) | objid::bigint) = $1::bigint
            """)
    static let terminate = Query(name: "test.terminate", sql: "SELECT pg_terminate_backend($1::int)")
    static let backend = Query(name: "test.backend", sql: "SELECT pg_backend_pid()")

    /// With a few statements the rest of the batch is already sent when the backend dies; with many large ones
    /// it is still being written, which is the path where libpq notices the loss inside `PQgetResult`.
    @Test(arguments: [0, 20_000])
    func aBackendTerminatedMidPipelineFailsTheCallAndThePoolReconnects(fillerStatements: Int) async throws {
        try await onOwnThread { try Self.terminateMidPipeline(fillerStatements: fillerStatements) }
    }

    static let filler = Query(name: "test.filler", sql: "SELECT length($1::text)")

    static func terminateMidPipeline(fillerStatements: Int) throws {
        let conninfo = try TemporaryPostgres.freshDatabase()
        let pool = try PostgresPool(conninfo: conninfo, size: 1)
        var ended = false
        // A pool whose thread still spins in the read loop cannot be closed; leave it to the process exit.
        defer { if ended { pool.close() } }
        let admin = try PostgresConnection(conninfo: conninfo)
        let key = Int.random(in: 1...Int(Int32.max))
        _ = try admin.query(lock, [key])

        // The pipeline's second statement waits for the lock the admin session holds, so the backend is
        // terminated while the pipeline is in flight: one result read, the rest and the sync outstanding.
        let outcome = Mutex<Result<[PostgresResult], any Error>?>(nil)
        Thread {
            let result = Result {
                try pool.withConnectionBlocking { connection in
                    let padding = String(repeating: "x", count: 1_000)
                    let fillers = (0..<fillerStatements).map { _ in BoundQuery(filler, [padding]) }
                    return try connection.pipeline(
                        [BoundQuery(Query(name: "test.one", sql: "SELECT 1")), BoundQuery(lock, [key])] + fillers + [
                            BoundQuery(Query(name: "test.two", sql: "SELECT 2"))
                        ])
                }
            }
            outcome.withLock { $0 = result }
        }.start()
        var victim: Int?
        #expect(
            try eventually(timeout: .seconds(30)) {
                victim = try admin.query(waiting, [key]).first.map { try $0.int(0) }
                return victim != nil
            }, "the pipeline never reached the advisory lock")
        let pid = try #require(victim)
        #expect(try admin.query(terminate, [pid]).single().bool(0))

        ended = eventually(timeout: .seconds(30)) { outcome.withLock { $0 != nil } }
        try #require(ended, "the pipeline read loop did not end within 30 s after its backend was terminated")
        let result = try #require(outcome.withLock { $0 })
        #expect(throws: PostgresError.self) { try result.get() }
        if case .failure(let error as PostgresError) = result {
            #expect(error.kind == .connectionLost)
            #expect(error.isRetryable)
        }

        // The pool's one connection is re-established and serves again, on a new backend.
        var served: Int?
        #expect(
            eventually(timeout: .seconds(30)) {
                served = try? pool.withConnectionBlocking { try $0.query(backend).single().int(0) }
                return served != nil
            })
        #expect(served != nil && served != pid)
        #expect(pool.stats.reconnects >= 1)
    }
}
