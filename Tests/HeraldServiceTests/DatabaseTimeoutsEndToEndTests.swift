import Foundation
import HeraldPostgres
import HeraldSupport
import HeraldTestSupport
import Synchronization
import Testing

/// Against the real binary: a user row held by another session makes the requests that need it fail with 503 and
/// `Retry-After` after the lock and pool-wait deadlines, writes nothing of theirs, and never holds up `/health`,
/// `/ready` or `/metrics`. Once the lock goes, the same request succeeds without a restart.
@Suite("Database timeouts (binary end to end)", .serialized)
struct DatabaseTimeoutsEndToEndTests {
    static let requests = 50

    @Test func aLockedUserRowEndsItsRequestsIn503AndNeverHoldsUpHealth() async throws {
        let conninfo = try await offCooperativePool { try TemporaryPostgres.freshDatabase() }
        let herald = try RunningHerald.start(environment: [
            "DATABASE_URL": conninfo, "HERALD_DB_POOL_SIZE": "4", "HERALD_DB_LOCK_TIMEOUT_MS": "1000",
            "HERALD_DB_POOL_WAIT_MS": "1500", "HERALD_PIPELINE_WORKERS": "0",
        ])
        defer { herald.kill() }
        _ = try await herald.waitUntilReady()
        let created = try await herald.request(
            "PUT", "/v1/users/ana", json: #"{"locale":"en","time_zone":"UTC"}"#, key: herald.adminKey)
        #expect(created.status == 201)

        // Another session holds Ana's row, as a long transaction or a stuck migration would.
        let holder = RowLockHolder(conninfo: conninfo, user: "ana")
        try await offCooperativePool { try holder.waitUntilLocked() }

        let port = herald.port
        let key = herald.adminKey
        let probing = Atomic<Bool>(true)
        let probes = Task { () -> (health: [Duration], ready: [Duration], metrics: [Duration], failures: Int) in
            var health: [Duration] = []
            var ready: [Duration] = []
            var metrics: [Duration] = []
            var failures = 0
            let clock = ContinuousClock()
            while probing.load(ordering: .relaxed) {
                for (path, isHealth) in [("/health", true), ("/metrics", false)] {
                    let start = clock.now
                    let reply = try? await LoopbackHTTP.request(port: port, "GET", path, timeoutSeconds: 5)
                    if reply?.status != 200 { failures += 1 }
                    if isHealth {
                        health.append(start.duration(to: clock.now))
                    } else {
                        metrics.append(start.duration(to: clock.now))
                    }
                }
                let start = clock.now
                // Ready or not (a busy pool reports not ready): what counts is that it answers.
                if (try? await LoopbackHTTP.request(port: port, "GET", "/ready", timeoutSeconds: 5)) == nil {
                    failures += 1
                }
                ready.append(start.duration(to: clock.now))
                try? await Task.sleep(for: .milliseconds(20))
            }
            return (health, ready, metrics, failures)
        }

        let replies = try await withThrowingTaskGroup(of: LoopbackHTTP.Reply.self) { group in
            for _ in 0..<Self.requests {
                group.addTask {
                    try await LoopbackHTTP.request(
                        port: port, "PUT", "/v1/users/ana", json: #"{"locale":"fr","time_zone":"Europe/Paris"}"#,
                        key: key, timeoutSeconds: 30)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        probing.store(false, ordering: .relaxed)
        let probed = try await probes.value

        #expect(replies.count == Self.requests)
        #expect(replies.allSatisfy { $0.status == 503 }, "\(replies.map(\.status))")
        #expect(replies.allSatisfy { $0.header("Retry-After") == "1" })
        #expect(replies.allSatisfy { $0.body.contains("urn:herald:problem:database-unavailable") })
        let slowest = (
            health: probed.health.max() ?? .zero, ready: probed.ready.max() ?? .zero,
            metrics: probed.metrics.max() ?? .zero
        )
        print(
            "database timeouts: \(replies.count) answered 503; \(probed.health.count) health probes, median "
                + "\(probed.health.sorted()[probed.health.count / 2]), slowest "
                + "\(slowest.health), ready \(slowest.ready), metrics \(slowest.metrics), failures \(probed.failures)")
        // The probes ran all the while the 50 were held up, which took seconds. On a quiet machine the slowest
        // `/health` answers in about 10 ms; with the rest of the suite running in parallel on two cores the client's
        // own scheduling adds noise, so the median is held to 100 ms and the slowest to well under the requests'
        // own deadlines.
        func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }
        #expect(probed.health.count >= 3)
        #expect(probed.failures == 0)
        #expect(median(probed.health) < .milliseconds(100))
        #expect(median(probed.metrics) < .milliseconds(100))
        #expect(slowest.health < .seconds(1))
        #expect(slowest.metrics < .seconds(1))
        #expect(slowest.ready < .seconds(2))

        // Nothing of the 50 was written: the holder, still in its transaction, sees Ana as she was.
        let locale = try await offCooperativePool { try holder.release() }
        #expect(locale == "en")
        let after = try await herald.request(
            "PUT", "/v1/users/ana", json: #"{"locale":"fr","time_zone":"Europe/Paris"}"#, key: herald.adminKey)
        #expect(after.status == 200)
        let read = try await herald.get("/v1/users/ana", key: herald.adminKey)
        #expect(read.body.contains(#""locale":"fr""#))
    }
}

/// A session on a thread of its own that locks one user's row until released, then reports the row's locale as
/// its transaction still sees it and rolls back.
final class RowLockHolder: Sendable {
    private let locked = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Result<String, any Error>?>(nil)

    init(conninfo: String, user: String) {
        Thread { [self] in
            do {
                let connection = try PostgresConnection(conninfo: conninfo)
                try connection.executeScript(Query(unsafeSQL: "BEGIN"))
                _ = try connection.query(Query(unsafeSQL: "SELECT 1 FROM users WHERE id = $1 FOR UPDATE"), [user])
                locked.signal()
                released.wait()
                let locale = try connection.query(Query(unsafeSQL: "SELECT locale FROM users WHERE id = $1"), [user])
                    .single().string(0)
                try connection.executeScript(Query(unsafeSQL: "ROLLBACK"))
                outcome.withLock { $0 = .success(locale) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
                locked.signal()
            }
            finished.signal()
        }.start()
    }

    /// Blocks until the row is locked; throws what the session met when it could not lock it.
    func waitUntilLocked() throws {
        guard locked.wait(timeout: .now() + 30) == .success else { throw Failure(description: "never locked") }
        if case .failure(let error) = outcome.withLock({ $0 }) { throw error }
    }

    /// Lets the row go and returns its locale as the holding transaction saw it.
    func release() throws -> String {
        released.signal()
        guard finished.wait(timeout: .now() + 30) == .success else { throw Failure(description: "never finished") }
        return try outcome.withLock { $0 }!.get()
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
