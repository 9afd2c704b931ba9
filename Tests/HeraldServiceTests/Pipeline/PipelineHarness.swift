import Foundation
import HeraldCore
import HeraldHTTP
import HeraldObservability
import HeraldPostgres
import HeraldText
import Synchronization
import Testing

@testable import HeraldService

/// A clock the test moves by hand.
final class PipelineTestClock: Sendable {
    private let instant: Mutex<Date>

    init(_ start: Date) { instant = Mutex(start) }

    var now: Date { instant.withLock { $0 } }

    func set(_ date: Date) { instant.withLock { $0 = date } }

    func advance(_ seconds: TimeInterval) { instant.withLock { $0 += seconds } }
}

/// The whole service on a fresh database with a hand-moved clock; batches are run by the test, not by workers.
struct PipelineHarness: Sendable {
    let context: ServiceContext
    /// The fresh database's connection string, for a connection of a test's own.
    let conninfo: String
    let dispatcher: RequestDispatcher
    let adminKey: String
    let clock: PipelineTestClock
    let processor: BatchProcessor
    /// The workers' category cache, so every pipeline test decides through it.
    let categories = CategoryVersionCache()
    /// Shared by every batch loop of the harness, as by the workers of one process.
    let claimsInFlight = ClaimsInFlight()

    static let zones = ICUZoneDirectory()

    static func make(
        start: Date = Date(timeIntervalSince1970: 1_796_000_000), backlogLimit: Int = 100_000,
        batchSize: Int = 200, topicPage: Int = 1_000, policy: DeciderConfig = ServiceConfig.defaults.policy
    ) async throws -> PipelineHarness {
        try await offCooperativePool {
            try build(
                start: start, backlogLimit: backlogLimit, batchSize: batchSize, topicPage: topicPage, policy: policy)
        }
    }

    private static func build(
        start: Date, backlogLimit: Int, batchSize: Int, topicPage: Int, policy: DeciderConfig
    ) throws -> PipelineHarness {
        let conninfo = try TemporaryPostgres.freshDatabase()
        let migrator = try Migrator(folder: TestService.sqlFolder)
        _ = try MigrateCommand.apply(migrator, conninfo: conninfo)
        let pool = try PostgresPool(conninfo: conninfo, size: 3)
        let logger = Logger(
            minimumLevel: .error,
            sink: ProcessInfo.processInfo.environment["HERALD_TEST_LOG"] == nil ? .discard : .standardError)
        let clock = PipelineTestClock(start)
        var config = ServiceConfig.defaults
        config.eventBacklogLimit = backlogLimit
        config.pipelineBatchSize = batchSize
        config.policy = policy
        let context = ServiceContext(
            config: config, pool: pool, logger: logger, metrics: Metrics(), migrator: migrator,
            timeZoneData: TimeZoneData.status(), zones: zones,
            authenticator: DatabaseAuthenticator(pool: pool, lifetime: .zero), clock: { clock.now },
            clientTokens: ClientTokenSigner(keys: [TestService.testClientTokenKey]))
        var limits = BatchLimits()
        limits.events = batchSize
        limits.topicPage = topicPage
        let harness = PipelineHarness(
            context: context, conninfo: conninfo,
            dispatcher: RequestDispatcher(
                router: APIRoutes.router(context: context), authenticator: context.authenticator, logger: logger,
                clientTokens: context.clientTokenAuthentication, dependencyProblem: DatabaseProblem.problem(for:)),
            adminKey: APIKeySecret.generate().value, clock: clock,
            processor: BatchProcessor(decider: PipelineEnvironment.decider(context), limits: limits))
        _ = try pool.withConnectionBlocking { [adminKey = harness.adminKey] connection in
            try APIKeyRepository.upsertAdmin(
                id: "admin", name: "test admin", keyHash: APIKeySecret(adminKey).hash, now: clock.now,
                on: connection)
        }
        return harness
    }

    /// Sends a request with the admin key (handlers block, so on a thread of its own).
    func send(_ method: HTTPMethod, _ target: String, json: String? = nil) async -> HTTPResponse {
        await send(method, target, body: json, contentType: "application/json")
    }

    /// Sends `body` as `contentType` with the admin key.
    func send(_ method: HTTPMethod, _ target: String, body: String?, contentType: String) async -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Authorization", "Bearer \(adminKey)")
        if body != nil { headers.set("Content-Type", contentType) }
        let request = HTTPRequest(method: method, target: target, headers: headers, body: Array((body ?? "").utf8))
        return await offCooperativePool { [dispatcher] in dispatcher.respond(to: request) }
    }

    /// Runs work on a pool connection.
    func database<R: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> R) async throws -> R {
        try await context.pool.withConnection(body)
    }

    /// Runs SQL for setup or assertions.
    func sql(_ text: String, _ parameters: [(any PostgresEncodable)?] = []) async throws -> PostgresResult {
        let query = Query(unsafeSQL: text)
        return try await database { connection in try connection.query(query, parameters) }
    }

    /// One integer from a query.
    func count(_ text: String, _ parameters: [(any PostgresEncodable)?] = []) async throws -> Int {
        try await sql(text, parameters).single().int(0)
    }

    /// Stores a category.
    func category(_ category: HeraldCore.Category) async throws {
        _ = try await database { [clock] connection in
            try CategoryRepository.create(category, actorKeyId: nil, now: clock.now, on: connection)
        }
    }

    /// Stores a user, created at the harness clock's time.
    func user(
        _ id: String, timeZone: String? = nil, quiet: (start: Int, end: Int)? = nil, locale: String? = "en",
        badge: Bool = true
    ) async throws {
        _ = try await sql(
            """
            INSERT INTO users (id, locale, time_zone, quiet_start_minute, quiet_end_minute, badge, created_at,
                               updated_at)
            VALUES ($1, $2, $3, $4::smallint, $5::smallint, $6::boolean, $7, $7)
            """, [id, locale, timeZone, quiet?.start, quiet?.end, badge, clock.now])
    }

    /// Stores an active device, registered at the harness clock's time.
    func device(_ installation: String, user: String, platform: Device.Platform = .apns) async throws {
        let token = Self.token(installation, platform: platform)
        _ = try await sql(
            """
            INSERT INTO devices (installation_id, user_id, platform, token, web_push_p256dh, web_push_auth, app_id,
                                 last_registered_at, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, 'com.example.app', $7, $7)
            """,
            [
                installation, user, platform.rawValue, token, platform == .webpush ? "BPk" : nil,
                platform == .webpush ? "auth" : nil, clock.now,
            ])
    }

    /// A push token of the shape `platform` uses, unique to `installation`.
    static func token(_ installation: String, platform: Device.Platform) -> String {
        switch platform {
        case .apns: String(repeating: "ab", count: 32) + installation.utf8.map { String($0, radix: 16) }.joined()
        case .fcm: "fcm-token-" + installation
        case .webpush: "https://push.example.com/" + installation
        case .wns: "https://wns.example.com/" + installation
        }
    }

    /// Subscribes users to a topic.
    func subscribe(_ users: [String], to topic: String) async throws {
        for user in users {
            _ = try await sql(
                "INSERT INTO topic_subscriptions (topic, user_id, created_at) VALUES ($1, $2, $3)",
                [topic, user, clock.now])
        }
    }

    /// Runs batches at the clock's time until one finds nothing to do; returns the reports that did work.
    @discardableResult
    func decideAll() async throws -> [BatchReport] {
        var reports: [BatchReport] = []
        while true {
            let report = try await database { [processor, categories, claimsInFlight, clock] connection in
                try processor.run(
                    on: PostgresDecisionStore(connection, categoryCache: categories, claimsInFlight: claimsInFlight),
                    now: clock.now)
            }
            guard report.didWork else { return reports }
            reports.append(report)
        }
    }

    /// An event body.
    static func event(
        id: String, category: String = "chat.message", users: [String] = ["u1"], source: String = "chat",
        thread: String? = nil, item: String? = nil, actor: String? = nil, occurredAt: Date,
        data: String = #"{"text":"hi"}"#, topic: String? = nil
    ) -> String {
        var members = [
            #""id":"\#(id)""#, #""source":"\#(source)""#, #""category":"\#(category)""#,
            #""occurred_at":"\#(ISO8601.format(occurredAt))""#,
            #""recipients":[\#(users.map { "\"\($0)\"" }.joined(separator: ","))]"#, #""data":\#(data)"#,
        ]
        if let thread { members.append(#""thread_id":"\#(thread)""#) }
        if let item { members.append(#""item_id":"\#(item)""#) }
        if let actor { members.append(#""actor":"\#(actor)""#) }
        if let topic { members.append(#""topic":"\#(topic)""#) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Bursts by thread over 60 s: the collapse rule of the chat tests.
    static let threadBurst = HeraldCore.Category.CollapseRule(keyTemplate: "msg:{thread_id}", windowSeconds: 60)

    /// The chat category collapsing by thread, and `user` with `devices`.
    func collapsingChat(user: String = "u1", devices: [(String, Device.Platform)]) async throws {
        try await category(Self.chatCategory(collapse: Self.threadBurst))
        try await self.user(user)
        for (installation, platform) in devices { try await device(installation, user: user, platform: platform) }
    }

    /// Posts one event of `category` in thread `t` for `user` at the clock's time, and decides it.
    func decideMessage(
        _ id: String, category: String = "chat.message", user: String = "u1", item: String? = nil
    ) async throws {
        let event = Self.event(
            id: id, category: category, users: [user], thread: "t", item: item ?? id, occurredAt: clock.now)
        #expect(await send(.post, "/v1/events", json: event).status == .accepted)
        try await decideAll()
    }

    /// A chat category with an English template.
    static func chatCategory(
        id: String = "chat.message", quietHours: HeraldCore.Category.QuietHoursPolicy = .defer,
        collapse: HeraldCore.Category.CollapseRule? = nil, ttlSeconds: Int = 86_400
    ) -> HeraldCore.Category {
        HeraldCore.Category(
            id: id, name: "Chat message", quietHours: quietHours, ttlSeconds: ttlSeconds, collapse: collapse,
            templates: [
                "en": LocalizedTemplates(
                    title: "New message", body: "{text}", digestTitle: "New messages",
                    digestBody: "{count, plural, one {# new message} other {# new messages}}")
            ])
    }

    func close() { context.pool.close() }
}

/// Runs blocking work on a thread of its own: the cooperative pool has two threads here, and a test that blocks
/// them stalls every async test of the run.
func offCooperativePool<R: Sendable>(_ work: @escaping @Sendable () throws -> R) async throws -> R {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Runs blocking work that cannot fail on a thread of its own.
func offCooperativePool<R: Sendable>(_ work: @escaping @Sendable () -> R) async -> R {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
