import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import HeraldSupport
import HeraldTestSupport
import Synchronization
import Testing

/// The real binary running a wave, killed with SIGKILL mid-wave and started again: the wave resumes from its
/// cursor and nobody gets the campaign twice. Then the ops command line reads the result.
@Suite("Campaign crash and resume", .serialized)
struct CampaignCrashTests {
    static let users = 6_000

    @Test func killingTheServiceMidWaveResumesWithoutDuplicates() async throws {
        let (conninfo, pool) = try await offCooperativePool {
            let conninfo = try TemporaryPostgres.freshDatabase()
            return (conninfo, try PostgresPool(conninfo: conninfo, size: 2))
        }
        defer { pool.close() }
        let herald = try CampaignHerald(conninfo: conninfo)
        defer { herald.stop() }
        try await herald.start()
        try await pool.withConnection { connection in
            _ = try CategoryRepository.create(
                PipelineHarness.chatCategory(), actorKeyId: nil, now: Date(), on: connection)
            try connection.execute(
                Query(
                    unsafeSQL: """
                        INSERT INTO users (id, locale, time_zone, created_at, updated_at)
                        SELECT 'u' || lpad(g::text, 6, '0'), 'en', 'UTC', $2::timestamptz, $2::timestamptz FROM generate_series(1, $1) g
                        """), [Self.users, Date()])
            try connection.execute(Query(unsafeSQL: CampaignTestSupport.devicesSQL), [Date()])
        }
        // Midnight UTC today has passed: with send_now the whole audience is one wave due at once.
        let today = String(ISO8601.format(Date()).prefix(10))
        let created = try await herald.request(
            "POST", "/v1/campaigns",
            json: CampaignTestSupport.body(id: "crash", date: today, time: "00:00", late: "send_now"))
        #expect(created.status == 201)

        func enqueued() async throws -> Int {
            try await pool.withConnection { connection in
                try connection.query(Query(unsafeSQL: "SELECT coalesce(sum(enqueued), 0) FROM campaign_waves"))
                    .single().int(0)
            }
        }
        var killedAt: [Int] = []
        for threshold in [1_000, 3_000] {
            let deadline = ContinuousClock.now + .seconds(60)
            while try await enqueued() < threshold, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            await herald.killHard()
            killedAt.append(try await enqueued())
            try await herald.start()
        }
        #expect(killedAt.allSatisfy { $0 < Self.users }, "killed after the wave finished: \(killedAt)")

        #expect(try await CampaignTestSupport.waitUntilSettled(pool, deadline: .seconds(120)))
        let counts = try await pool.withConnection { connection in
            func count(_ sql: String) throws -> Int { try connection.query(Query(unsafeSQL: sql)).single().int(0) }
            return (
                recipients: try count("SELECT count(*) FROM campaign_recipients"),
                decisions: try count(
                    "SELECT count(*) FROM campaign_events ce JOIN decisions d ON d.event_seq = ce.event_seq"),
                users: try count(
                    """
                    SELECT count(DISTINCT d.user_id)
                    FROM campaign_events ce JOIN decisions d ON d.event_seq = ce.event_seq
                    """),
                pushes: try count("SELECT count(*) FROM deliveries"),
                distinctPushes: try count("SELECT count(DISTINCT user_id) FROM deliveries")
            )
        }
        print("campaign crash: killed at \(killedAt) enqueued, \(counts)")
        #expect(counts.recipients == Self.users)
        #expect(counts.decisions == Self.users)
        #expect(counts.users == Self.users)
        #expect(counts.pushes == Self.users)
        #expect(counts.distinctPushes == Self.users)

        // The ops command line against the same server: plain lines when stdout is not a terminal.
        let shown = try await herald.command(["campaign", "show", "crash", "--follow"])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("6,000/6,000 decided"))
        #expect(shown.stdout.contains("completed"))
        let listed = try await herald.command(["campaign", "list"])
        #expect(listed.stdout.hasPrefix("crash  completed  \(today)  00:00  chat.message  planned 6000  enqueued 6000"))
        let refused = try await herald.command(["campaign", "cancel", "nope"])
        #expect(refused.status == 1)
    }
}

/// The real `herald serve` on the test's database, with small campaign batches spread over a few seconds.
final class CampaignHerald: Sendable {
    let conninfo: String
    let folder: String
    let port: Int
    let adminKey: String
    private let running = Mutex<Process?>(nil)

    /// Replicas of one deployment share `adminKey`.
    init(conninfo: String, adminKey: String? = nil) throws {
        self.conninfo = conninfo
        folder = try RunningHerald.temporaryFolder()
        port = RunningHerald.freePort()
        self.adminKey = adminKey ?? "hk_camp_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
    }

    func start() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunningHerald.binary)
        process.arguments = ["serve"]
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = conninfo
        environment["HERALD_DATA_DIR"] = folder + "/data"
        environment["HERALD_HTTP_ADDR"] = "127.0.0.1:\(port)"
        environment["HERALD_ADMIN_KEY"] = adminKey
        environment["HERALD_PIPELINE_WORKERS"] = "2"
        environment["HERALD_CAMPAIGN_BATCH_SIZE"] = "200"
        // Long enough that a restart under a slowed machine (heap checking, a shifted clock) still finds most of
        // the wave ahead of it: the schedule is absolute, so a restart slower than the rest of the wave would
        // hand out everything that remains at once.
        environment["HERALD_CAMPAIGN_MIN_WAVE_SECONDS"] = "45"
        environment["HERALD_LOG_LEVEL"] = "warning"
        environment["HERALD_SHUTDOWN_GRACE"] = "1"
        environment.removeValue(forKey: "ICU_TIMEZONE_FILES_DIR")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        running.withLock { $0 = process }
        _ = try await LoopbackHTTP.waitUntilReady(port: port, deadline: .seconds(180)) { process.isRunning }
    }

    func killHard() async {
        guard let process = running.withLock({ $0 }) else { return }
        kill(process.processIdentifier, SIGKILL)
        await offCooperativePool { process.waitUntilExited() }
    }

    func stop() {
        guard let process = running.withLock({ $0 }) else { return }
        if process.isRunning {
            process.terminate()
            process.waitUntilExited()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    func request(_ method: String, _ path: String, json: String? = nil) async throws -> (status: Int, body: String) {
        let reply = try await LoopbackHTTP.request(port: port, method, path, json: json, key: adminKey)
        return (reply.status, reply.body)
    }

    /// Runs `herald <arguments> --url … --key …` to completion; stdout is a pipe, not a terminal.
    func command(_ arguments: [String]) async throws -> (status: Int32, stdout: String) {
        try await offCooperativePool { [port, adminKey] in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: RunningHerald.binary)
            process.arguments = arguments + ["--url", "http://127.0.0.1:\(port)", "--key", adminKey]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExited()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }
}
