import Foundation
import HeraldCore
import HeraldHTTP
import HeraldObservability
import HeraldPostgres
import HeraldText

/// `herald serve`: tz data, database, migrations, admin key, HTTP — then wait for SIGINT/SIGTERM and stop cleanly.
enum ServeCommand {
    /// Whether a shutdown signal came while the service was starting; then it stops there (the embedded database
    /// is stopped on the way out) instead of starting what it would stop at once.
    static func stoppedWhileStarting(_ shutdown: ShutdownSignal, logger: Logger) -> Bool {
        guard let signal = shutdown.received else { return false }
        logger.info("shutting down before the service was ready", ["process.signal": .int(Int(signal))])
        return true
    }

    static func run(config: ServiceConfig, environment: [String: String]) throws {
        let logger = Logger(minimumLevel: Logger.Level(name: config.logLevel) ?? .info)
        // Activating the tz data may execute the program again; a handler installed before would take a signal
        // that the new image never learns of. Until here nothing needs stopping, so a signal simply ends the process.
        let timeZoneData = try TimeZoneSetup.activate(config)
        let shutdown = ShutdownSignal()
        logger.info(
            timeZoneData.summary,
            [
                "tzdata.os": .string(timeZoneData.osVersion ?? "unknown"),
                "tzdata.icu": .string(timeZoneData.icuVersion),
            ])
        if !timeZoneData.matchesOS { logger.warning("tz data differs from the OS; /ready reports not ready") }

        let database = try DatabaseSetup.start(config)
        defer { stopEmbedded(database, logger: logger) }
        if let cluster = database.embedded {
            logger.info("embedded PostgreSQL running", ["db.folder": .string(config.dataDirectory + "/pg")])
            if let short = cluster.diskShortfall() {
                logger.warning(
                    "the disk holding the embedded database has less free space than the WAL it may keep in a burst",
                    [
                        "disk.free_bytes": .int(Int(short.freeBytes)),
                        "db.max_wal_size_bytes": .int(Int(short.walAllowanceBytes)),
                    ])
            }
        }
        if stoppedWhileStarting(shutdown, logger: logger) { return }
        let migrator = try Migrator(folder: DatabaseSetup.migrationsFolder(config, environment: environment))
        let applied = try MigrateCommand.apply(migrator, conninfo: database.conninfo)
        logger.info("migrations applied", ["db.migrations.new": .int(applied.count)])
        if stoppedWhileStarting(shutdown, logger: logger) { return }

        let pool = try PostgresPool(config.requestPoolConfiguration(conninfo: database.conninfo))
        defer { pool.close() }
        let clock: @Sendable () -> Date = { Date() }
        let adminKey = try bootstrapAdminKey(config, pool: pool, clock: clock, logger: logger)

        let metrics = Metrics()
        registerPoolGauges(metrics, pool: pool)
        let context = ServiceContext(
            config: config, pool: pool, logger: logger, metrics: metrics, migrator: migrator,
            timeZoneData: timeZoneData, zones: ICUZoneDirectory(), authenticator: DatabaseAuthenticator(pool: pool),
            clock: clock,
            clientTokens: ClientTokenSigner(keys: try ClientTokenKeyFile.keys(for: config)),
            console: ConsoleFiles.locate(environment: environment))
        if let folder = context.console.folder {
            logger.info("serving the console", ["console.folder": .string(folder.path)])
        } else {
            logger.warning("no console folder found; /console answers 404 (set HERALD_CONSOLE_DIR)")
        }
        let background = backgroundServices(context: context, conninfo: database.conninfo)
        try background.start()
        // On an early exit (an HTTP server that does not start); at shutdown they stop after the servers, below.
        defer { background.stop() }
        let server = HTTPServer(
            configuration: config.httpServerConfiguration(port: UInt16(config.httpPort)),
            dispatcher: context.apiDispatcher(), logger: logger, metrics: metrics)
        try server.start()
        let address = "http://\(config.httpHost):\(server.port ?? UInt16(config.httpPort))"
        logger.info("listening", ["http.address": .string(address)])
        let metricsServer = try config.metricsAddress.map { metricsAddress in
            var configuration = config.httpServerConfiguration(port: UInt16(metricsAddress.port))
            configuration.host = metricsAddress.host
            let metricsServer = HTTPServer(
                configuration: configuration, dispatcher: context.metricsDispatcher(), logger: logger,
                metrics: metrics)
            try metricsServer.start()
            let url = "http://\(metricsAddress.host):\(metricsServer.port ?? UInt16(metricsAddress.port))/metrics"
            logger.info("serving metrics", ["metrics.address": .string(url)])
            return metricsServer
        }
        announce(address: address, adminKey: adminKey, config: config)

        let signal = shutdown.wait()
        logger.info("shutting down", ["process.signal": .int(Int(signal))])
        server.stop(timeout: .seconds(config.shutdownGraceSeconds))
        metricsServer?.stop(timeout: .seconds(1))
        logger.info("stopped accepting requests")
        background.stop()
    }

    /// The parts that work beside the HTTP server, in the order they start; they stop in reverse, so the pipeline
    /// workers go last and decide what the others stored until then.
    static func backgroundServices(context: ServiceContext, conninfo: String) -> ServiceGroup {
        let retention = RetentionJob(
            settings: RetentionJob.Settings(retentionDays: context.config.retentionDays), pool: context.pool,
            logger: context.logger, metrics: context.metrics, clock: context.clock)
        let services: [(any BackgroundService)?] = [
            PipelineService.workers(context: context, conninfo: conninfo),
            CampaignService.runner(context: context, conninfo: conninfo),
            StreamsService.make(context: context, conninfo: conninfo),
            retention,
            MemoryTrimmer(),
        ]
        return ServiceGroup(name: "background services", services.compactMap { $0 })
    }

    /// Prints where Herald listens and which admin key to use, on stdout for the operator; the key itself only
    /// on the start that generated it.
    static func announce(address: String, adminKey: AdminKey, config: ServiceConfig) {
        var lines = ["herald \(Herald.version) listening on \(address)"]
        switch adminKey {
        case .configured: lines.append("admin key: the value of HERALD_ADMIN_KEY (or HERALD_ADMIN_KEY_FILE)")
        case .generated(let secret, let path):
            lines.append("admin key: \(secret)   (generated now, shown once, kept in \(path))")
        case .stored(let path): lines.append("admin key: kept in \(path)")
        }
        lines.append("try: curl \(address)/ready   (the console: \(address)/console)")
        StandardOutput.write(lines.joined(separator: "\n") + "\n")
    }

    /// Where the admin key came from.
    enum AdminKey {
        /// `HERALD_ADMIN_KEY` or `HERALD_ADMIN_KEY_FILE`.
        case configured
        /// Generated by this start and stored in the data folder.
        case generated(secret: String, path: String)
        /// Generated by an earlier start and read from the data folder.
        case stored(path: String)
    }

    static func bootstrapAdminKey(
        _ config: ServiceConfig, pool: PostgresPool, clock: @Sendable () -> Date, logger: Logger
    ) throws -> AdminKey {
        let secret: String
        let origin: AdminKey
        if let key = config.adminKey {
            secret = key
            origin = .configured
        } else {
            let file = AdminKeyFile(dataDirectory: config.dataDirectory)
            let (key, created) = try file.loadOrCreate { APIKeySecret.generate().value }
            secret = key
            origin = created ? .generated(secret: key, path: file.path) : .stored(path: file.path)
        }
        let hash = APIKeySecret(secret).hash
        let now = clock()
        let revoked = try pool.withConnectionBlocking { connection in
            try APIKeyRepository.upsertAdmin(
                id: "admin", name: "bootstrap admin", keyHash: hash, now: now, on: connection)
        }
        if revoked {
            logger.warning(
                "the bootstrap admin key is revoked and stays so; a new HERALD_ADMIN_KEY (or a deleted admin-key file) "
                    + "makes a new one")
        }
        return origin
    }

    static func registerPoolGauges(_ metrics: Metrics, pool: PostgresPool) {
        metrics.registerGauge("herald_db_pool_connections", help: "PostgreSQL connections in the pool.") {
            Double(pool.stats.size)
        }
        metrics.registerGauge("herald_db_pool_busy", help: "Pool connections running a call.") {
            Double(pool.stats.busy)
        }
        metrics.registerGauge("herald_db_pool_waiting", help: "Calls waiting for a pool connection.") {
            Double(pool.stats.waiting)
        }
        metrics.registerGauge("herald_db_pool_reconnects", help: "Reconnections after a lost connection.") {
            Double(pool.stats.reconnects)
        }
    }

    static func stopEmbedded(_ database: DatabaseSetup, logger: Logger) {
        guard let cluster = database.embedded else { return }
        do {
            try cluster.stop()
            logger.info("embedded PostgreSQL stopped")
        } catch {
            logger.error("embedded PostgreSQL did not stop cleanly", ["error": .string(String(describing: error))])
        }
    }
}
