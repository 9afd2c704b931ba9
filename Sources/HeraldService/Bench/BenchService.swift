import Foundation
import HeraldHTTP
import HeraldObservability
import HeraldPostgres
import HeraldText
import Synchronization

/// The whole service for a benchmark: its own database (embedded in a temporary folder unless `DATABASE_URL` is
/// set), migrations, pool, routes and an HTTP server on a free loopback port. Workers start on demand.
final class BenchService: Sendable {
    let context: ServiceContext
    let conninfo: String
    let dispatcher: RequestDispatcher
    let server: HTTPServer
    let adminKey: String
    let folder: String
    /// Reads the CPU of herald and of the embedded server's processes.
    let cpu: BenchCPU
    /// Whether `pg_stat_statements` is created in the bench database and tracks statements.
    let tracksStatements: Bool
    private let embedded: EmbeddedPostgres?
    private let tornDown = Mutex(false)
    /// Trims the heap once a minute, as `herald serve` does.
    private let trimmer = MemoryTrimmer()

    /// Starts everything; with `tracksStatements`, `pg_stat_statements` records every statement (the embedded
    /// server always preloads it, so that every run has the same server, with tracking off unless asked for).
    init(environment: [String: String], tracksStatements: Bool = false) throws {
        var config = ServiceConfig.defaults
        // The migrations are found first: a run that cannot start leaves no folder and no server behind.
        config.migrationsDirectory = environment["HERALD_MIGRATIONS_DIR"]
        let migrator = try Migrator(folder: DatabaseSetup.migrationsFolder(config, environment: environment))
        folder = NSTemporaryDirectory() + "herald-bench-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        config.dataDirectory = folder
        config.databaseURL = environment["DATABASE_URL"]
        config.httpHost = "127.0.0.1"
        config.httpPort = 0
        config.databasePoolSize = 8
        // The ingest phase accepts two rounds of events before the workers catch up; admission control is not
        // what it measures.
        config.eventBacklogLimit = 1_000_000
        let logger = Logger(minimumLevel: .error)
        let timeZoneData = try TimeZoneSetup.activate(config)
        let options = EmbeddedPostgres.Options(settings: [
            "shared_preload_libraries": "pg_stat_statements",
            "pg_stat_statements.track": tracksStatements ? "top" : "none",
            "pg_stat_statements.track_planning": tracksStatements ? "on" : "off",
        ])
        let database = try DatabaseSetup.start(config, embeddedOptions: options)
        embedded = database.embedded
        conninfo = database.conninfo
        cpu = BenchCPU(postmaster: database.embedded?.serverProcessID)
        self.tracksStatements = tracksStatements
        // Whatever fails from here stops the server it started and removes its folder.
        do {
            _ = try MigrateCommand.apply(migrator, conninfo: conninfo)
            let pool = try PostgresPool(conninfo: conninfo, size: config.databasePoolSize)
            if tracksStatements {
                try pool.withConnectionBlocking { try BenchRepository.enableStatementStatistics(on: $0) }
            }
            adminKey = APIKeySecret.generate().value
            _ = try pool.withConnectionBlocking { [adminKey] connection in
                try APIKeyRepository.upsertAdmin(
                    id: "bench", name: "benchmark", keyHash: APIKeySecret(adminKey).hash, now: Date(), on: connection)
            }
            let metrics = Metrics()
            context = ServiceContext(
                config: config, pool: pool, logger: logger, metrics: metrics, migrator: migrator,
                timeZoneData: timeZoneData, zones: ICUZoneDirectory(), authenticator: DatabaseAuthenticator(pool: pool),
                clock: { Date() })
            dispatcher = context.apiDispatcher()
            server = HTTPServer(
                configuration: config.httpServerConfiguration(port: 0),
                dispatcher: dispatcher, logger: logger, metrics: metrics)
            try server.start()
        } catch {
            try? database.embedded?.stop()
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        trimmer.start()
    }

    /// The server's base address.
    var address: String { "http://127.0.0.1:\(server.port ?? 0)" }

    /// Starts the pipeline workers as `herald serve` does.
    func startWorkers() throws -> PipelineWorkers? {
        let workers = PipelineService.workers(context: context, conninfo: conninfo)
        try workers?.start()
        return workers
    }

    /// Sends a request in process with the admin key.
    func send(
        _ method: HTTPMethod, _ target: String, body: String, contentType: String = "application/json"
    )
        -> HTTPResponse
    {
        var headers = HTTPHeaders()
        headers.set("Authorization", "Bearer \(adminKey)")
        headers.set("Content-Type", contentType)
        return dispatcher.respond(
            to: HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8)))
    }

    /// Runs work on a pool connection.
    func database<R: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> R) throws -> R {
        try context.pool.withConnectionBlocking(body)
    }

    /// One setting of the server.
    func setting(_ name: String) throws -> String {
        try database { try BenchRepository.setting(name, on: $0) }
    }

    /// Events the workers have decided completely since they started, from their own counter.
    var eventsDecided: Double { context.metrics.counterValue("herald_pipeline_events_decided_total") ?? 0 }

    /// Waits until the workers have decided `events` more events than `before` (a reading of `eventsDecided`).
    /// It polls the workers' counter in process, which costs the database nothing: a timed phase's PostgreSQL CPU
    /// is then the pipeline's own. (Counting the pending events instead scanned them every poll: in a full
    /// pipeline phase, 147 polls and about 4 % of the machine's CPU.)
    func waitForDecided(_ events: Int, since before: Double, timeoutSeconds: Double = 600) throws {
        try Self.wait(until: { self.eventsDecided - before >= Double(events) }, timeoutSeconds: timeoutSeconds) {
            "bench: the workers did not decide \(events) events in time"
        }
    }

    /// Polls `done` every `interval` seconds until it holds; throws `failure` once `timeoutSeconds` have passed.
    static func wait(
        until done: () throws -> Bool, every interval: Double = 0.002, timeoutSeconds: Double,
        failure: () -> String
    ) throws {
        let start = ContinuousClock.now
        while !(try done()) {
            guard BenchStatistics.seconds(since: start) < timeoutSeconds else {
                throw ServiceStartError(message: failure())
            }
            Thread.sleep(forTimeInterval: interval)
        }
    }

    /// Waits until no event is pending, polling the database: for the untimed parts of a run.
    func waitForDrain(timeoutSeconds: Double = 600) throws {
        try Self.wait(
            until: { try database({ try BenchRepository.pendingEventCount(on: $0) }) == 0 }, every: 0.02,
            timeoutSeconds: timeoutSeconds
        ) { "bench: the pipeline did not drain in time" }
    }

    /// Stops the embedded cluster and removes the temporary folder at once, whatever runs: for a run cut short by a
    /// signal, which must not leave a server behind to load the machine. Done once: a second caller (the run's own
    /// closing, racing a signal) waits until the first is done.
    func abandon() {
        tornDown.withLock { done in
            guard !done else { return }
            try? embedded?.stop()
            try? FileManager.default.removeItem(atPath: folder)
            done = true
        }
    }

    /// Stops the server, the pool and the embedded cluster, and removes the temporary folder.
    func close() {
        trimmer.stop()
        server.stop(timeout: .seconds(2))
        context.pool.close()
        abandon()
    }
}
