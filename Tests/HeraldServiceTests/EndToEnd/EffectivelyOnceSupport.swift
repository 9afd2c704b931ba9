import Foundation
import HeraldCore
import HeraldPostgres
import HeraldSupport
import HeraldTestSupport
import Synchronization

/// The real `herald` binary on a database the test owns, which the test may SIGKILL and start again.
final class HeraldUnderTest: Sendable {
    let conninfo: String
    let folder: String
    let port: Int
    let adminKey: String
    private let running = Mutex<Process?>(nil)

    /// Replicas of one deployment share `adminKey` (each start makes it the admin key).
    init(conninfo: String, adminKey: String? = nil) throws {
        self.conninfo = conninfo
        self.folder = try RunningHerald.temporaryFolder()
        self.port = RunningHerald.freePort()
        self.adminKey = adminKey ?? "hk_once_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
    }

    /// Starts the binary (with `extra` environment variables) and waits until it is ready.
    func start(workers: Int = 2, environment extra: [String: String] = [:]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunningHerald.binary)
        process.arguments = ["serve"]
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = conninfo
        environment["HERALD_DATA_DIR"] = folder + "/data"
        environment["HERALD_HTTP_ADDR"] = "127.0.0.1:\(port)"
        environment["HERALD_ADMIN_KEY"] = adminKey
        environment["HERALD_PIPELINE_WORKERS"] = String(workers)
        environment["HERALD_PIPELINE_BATCH_SIZE"] = "100"
        environment["HERALD_LOG_LEVEL"] = "warning"
        environment["HERALD_DB_POOL_SIZE"] = "4"
        environment["HERALD_SHUTDOWN_GRACE"] = "1"
        environment.removeValue(forKey: "ICU_TIMEZONE_FILES_DIR")
        environment.merge(extra) { $1 }
        process.environment = environment
        let log = folder + "/herald-\(UUID().uuidString.prefix(6)).log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        running.withLock { $0 = process }
        do {
            _ = try await LoopbackHTTP.waitUntilReady(port: port, deadline: .seconds(180)) { process.isRunning }
        } catch {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw RunningHerald.StartFailure(message: "herald: \(error): \(output.suffix(2_000))")
        }
    }

    /// What every start wrote on stderr so far (the log), oldest start first.
    func log() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.hasPrefix("herald-") && $0.hasSuffix(".log")
        }
        return try names.sorted().map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
            .joined()
    }

    /// SIGKILL: no shutdown code runs.
    func killHard() async {
        guard let process = running.withLock({ $0 }) else { return }
        kill(process.processIdentifier, SIGKILL)
        await offCooperativePool { process.waitUntilExited() }
    }

    /// Whether the process still runs.
    var isRunning: Bool { running.withLock { $0?.isRunning ?? false } }

    /// SIGTERM and wait (off the cooperative pool); removes the folder.
    func stop() async {
        guard let process = running.withLock({ $0 }) else { return }
        await offCooperativePool { [folder] in
            if process.isRunning {
                process.terminate()
                process.waitUntilExited()
            }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// Runs `body` with a started instance and stops it afterwards, also when `body` throws.
    static func with(
        conninfo: String, _ body: @Sendable (HeraldUnderTest) async throws -> Void
    ) async throws {
        let herald = try HeraldUnderTest(conninfo: conninfo)
        do {
            try await herald.start()
            try await body(herald)
        } catch {
            await herald.stop()
            throw error
        }
        await herald.stop()
    }

    /// One request; the status is 0 when the connection failed.
    func request(_ method: String, _ path: String, json: String? = nil) async throws -> (status: Int, body: String) {
        let reply = try await LoopbackHTTP.request(port: port, method, path, json: json, key: adminKey)
        return (reply.status, reply.body)
    }

    /// Posts a batch until it is stored (202 or 200), through refused connections, 503s and restarts; returns
    /// how many attempts it took.
    @discardableResult
    func postUntilStored(_ batch: String) async throws -> Int {
        var attempts = 0
        let deadline = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < deadline {
            attempts += 1
            if let reply = try? await request("POST", "/v1/events", json: batch) {
                if reply.status == 202 || reply.status == 200 { return attempts }
                if reply.status != 503 && reply.status != 500 {
                    throw RunningHerald.StartFailure(message: "ingest answered \(reply.status): \(reply.body)")
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw RunningHerald.StartFailure(message: "a batch was never stored")
    }
}

/// The workload and the checks of the effectively-once tests, on the test's own database.
struct EffectivelyOnceWorkload: Sendable {
    let users: Int
    let events: Int
    /// Every how many events one goes to the collapsing category (0: none).
    let burstEvery: Int
    let start = Date()

    /// Categories, users with an APNs and an FCM device each.
    func prepare(on pool: PostgresPool) async throws {
        try await pool.withConnection { [users] connection in
            let plain = PipelineHarness.chatCategory(id: "chat.message")
            _ = try CategoryRepository.create(plain, actorKeyId: nil, now: Date(), on: connection)
            let burst = PipelineHarness.chatCategory(
                id: "chat.burst",
                collapse: HeraldCore.Category.CollapseRule(keyTemplate: "t:{thread_id}", windowSeconds: 1))
            _ = try CategoryRepository.create(burst, actorKeyId: nil, now: Date(), on: connection)
            try connection.execute(
                Query(
                    unsafeSQL:
                        """
                        INSERT INTO users (id, created_at, updated_at)
                        SELECT 'u' || g, $2::timestamptz, $2::timestamptz FROM generate_series(1, $1) g
                        """
                ),
                [users, Date()])
            try connection.execute(
                Query(
                    unsafeSQL: """
                        INSERT INTO devices (installation_id, user_id, platform, token, app_id, last_registered_at,
                                             created_at)
                        SELECT 'ios-' || g, 'u' || g, 'apns', md5('ios' || g) || md5('x' || g), 'com.example.app',
                               $2::timestamptz, $2::timestamptz
                        FROM generate_series(1, $1) g
                        UNION ALL
                        SELECT 'android-' || g, 'u' || g, 'fcm', 'fcm-' || g, 'com.example.app', $2::timestamptz, $2::timestamptz
                        FROM generate_series(1, $1) g
                        """), [users, Date()])
        }
    }

    /// The events as batches of `size`.
    func batches(size: Int) -> [String] {
        stride(from: 0, to: events, by: size).map { first in
            let events = (first..<min(events, first + size)).map { index -> String in
                let burst = burstEvery > 0 && index % burstEvery == 0
                // Bursts go to five users in two rooms each, so their windows fill while the load runs.
                let round = burstEvery > 0 ? index / burstEvery : 0
                let user = burst ? "u\(round % 5 + 1)" : "u\(index % users + 1)"
                return PipelineHarness.event(
                    id: "ev-\(index)", category: burst ? "chat.burst" : "chat.message", users: [user],
                    source: "load", thread: burst ? "room-\(round / 5 % 2)" : nil, item: "item-\(index)",
                    occurredAt: start, data: #"{"text":"message \#(index)"}"#)
            }
            return "[" + events.joined(separator: ",") + "]"
        }
    }

    /// Polls until every event is decided and every collapse window with held-back events closed (a burst of one
    /// keeps an open group but has no timer).
    func waitUntilSettled(on pool: PostgresPool, deadline: Duration = .seconds(300)) async throws {
        let settled = try await pool.pollUntilZero(
            "SELECT (SELECT count(*) FROM events WHERE state = 'pending') + (SELECT count(*) FROM timers)",
            every: .milliseconds(200), deadline: deadline)
        guard settled else { throw RunningHerald.StartFailure(message: "the pipeline did not settle in time") }
    }

    /// What the database holds after the run.
    struct Tally: Sendable {
        var events = 0
        var decidedEvents = 0
        var decisions = 0
        var duplicatePushes = 0
        var eventDeliveries = 0
        var expectedEventDeliveries = 0
        var missingDeliveries = 0
        var digests = 0
        var digestDeliveries = 0
        var expectedDigestDeliveries = 0
        var unreadTotal = 0
        var countedDecisions = 0
        var usersWithWrongCount = 0
    }

    /// Counts everything the checks compare.
    func tally(on pool: PostgresPool) async throws -> Tally {
        try await pool.withConnection { connection in
            func count(_ sql: String) throws -> Int {
                try connection.query(Query(unsafeSQL: sql)).single().int(0)
            }
            var tally = Tally()
            tally.events = try count("SELECT count(*) FROM events")
            tally.decidedEvents = try count("SELECT count(*) FROM events WHERE state = 'decided'")
            tally.decisions = try count("SELECT count(*) FROM decisions")
            tally.duplicatePushes = try count(
                """
                SELECT count(*) FROM (SELECT notification_id, installation_id, kind FROM deliveries
                                      GROUP BY 1, 2, 3 HAVING count(*) > 1) AS d
                """)
            tally.eventDeliveries = try count("SELECT count(*) FROM deliveries WHERE event_id IS NOT NULL")
            tally.expectedEventDeliveries = try count(
                "SELECT coalesce(sum(cardinality(delivery_ids)), 0) FROM decisions")
            tally.missingDeliveries = try count(
                """
                SELECT count(*) FROM (SELECT unnest(delivery_ids) AS id FROM decisions
                                      UNION ALL SELECT unnest(delivery_ids) FROM digests) AS ids
                WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.id = ids.id)
                """)
            tally.digests = try count("SELECT count(*) FROM digests")
            tally.digestDeliveries = try count("SELECT count(*) FROM deliveries WHERE event_id IS NULL")
            tally.expectedDigestDeliveries = try count(
                "SELECT coalesce(sum(cardinality(delivery_ids)), 0) FROM digests")
            tally.unreadTotal = try count("SELECT coalesce(sum(unread), 0) FROM recipient_counters")
            tally.countedDecisions = try count("SELECT count(*) FROM decisions WHERE counts_unread")
            tally.usersWithWrongCount = try count(
                """
                SELECT count(*) FROM (
                    SELECT d.user_id, count(*) AS counted FROM decisions d WHERE d.counts_unread GROUP BY d.user_id
                ) AS c LEFT JOIN recipient_counters u ON u.user_id = c.user_id
                WHERE u.unread IS DISTINCT FROM c.counted
                """)
            return tally
        }
    }
}
