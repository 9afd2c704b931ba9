import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import HeraldText

/// `herald serve`: tz data, database, migrations, admin key, HTTP — then wait for SIGINT/SIGTERM and stop cleanly.
enum ServeCommand {
    static func run(config: ServiceConfig, environment: [String: String]) throws {
        let shutdown = ShutdownSignal()
        let logger = Logger(minimumLevel: Logger.Level(name: config.logLevel) ?? .info)
        let timeZoneData = try TimeZoneSetup.activate(config)
        logger.info(
            timeZoneData.summary,
            [
                "tzdata.os": .string(timeZoneData.osVersion ?? "unknown"),
                "tzdata.icu": .string(timeZoneData.icuVersion),
            ])
        if !timeZoneData.matchesOS { logger.warning("tz data differs from the OS; /ready reports not ready") }

        let database = try DatabaseSetup.start(config)
        defer { stopEmbedded(database, logger: logger) }
        if database.embedded != nil {
            logger.info("embedded PostgreSQL running", ["db.folder": .string(config.dataDirectory + "/pg")])
        }
        let migrator = try Migrator(folder: DatabaseSetup.migrationsFolder(config, environment: environment))
        let applied = try MigrateCommand.apply(migrator, conninfo: database.conninfo)
        logger.info("migrations applied", ["db.migrations.new": .int(applied.count)])

        let pool = try PostgresPool(conninfo: database.conninfo, size: config.databasePoolSize)
        defer { pool.close() }
        let adminKey = try bootstrapAdminKey(config, pool: pool)

        let metrics = Metrics()
        registerPoolGauges(metrics, pool: pool)
        let context = ServiceContext(
            config: config, pool: pool, logger: logger, metrics: metrics, migrator: migrator,
            timeZoneData: timeZoneData, zones: ICUZoneDirectory(), authenticator: DatabaseAuthenticator(pool: pool),
            clock: { Date() },
            clientTokens: ClientTokenSigner(keys: try ClientTokenKeyFile.keys(for: config)))
        let workers = try PipelineService.start(context: context, conninfo: database.conninfo)
        let campaigns = try CampaignService.start(context: context, conninfo: database.conninfo)
        let streams = try StreamsService.start(context: context, conninfo: database.conninfo)
        let retention = RetentionJob(
            settings: RetentionJob.Settings(retentionDays: config.retentionDays), pool: pool, logger: logger,
            metrics: metrics, clock: context.clock)
        retention.start()
        let dispatcher = RequestDispatcher(
            router: APIRoutes.router(context: context), authenticator: context.authenticator, logger: logger,
            clientTokens: context.clientTokenAuthentication)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: config.httpHost, port: UInt16(config.httpPort), threadPoolSize: config.httpThreads,
                connectionLimit: config.httpConnectionLimit,
                idleTimeout: .seconds(config.httpIdleTimeoutSeconds), maxBodyBytes: config.maxBodyBytes),
            dispatcher: dispatcher, logger: logger, metrics: metrics)
        try server.start()
        let address = "http://\(config.httpHost):\(server.port ?? UInt16(config.httpPort))"
        logger.info("listening", ["http.address": .string(address)])
        announce(address: address, adminKey: adminKey, config: config)

        let signal = shutdown.wait()
        logger.info("shutting down", ["process.signal": .int(Int(signal))])
        server.stop(timeout: .seconds(config.shutdownGraceSeconds))
        logger.info("stopped accepting requests")
        campaigns.stop()
        retention.stop()
        streams?.stop()
        workers?.stop()
    }

    /// Prints where Herald listens and which admin key to use, on stdout for the operator.
    static func announce(address: String, adminKey: AdminKey, config: ServiceConfig) {
        var lines = ["herald \(Herald.version) listening on \(address)"]
        switch adminKey {
        case .fromEnvironment: lines.append("admin key: the value of HERALD_ADMIN_KEY")
        case .stored(let secret, let path): lines.append("admin key: \(secret)   (kept in \(path))")
        }
        lines.append("try: curl \(address)/ready")
        StandardOutput.write(lines.joined(separator: "\n") + "\n")
    }

    /// Where the admin key came from.
    enum AdminKey {
        case fromEnvironment
        case stored(secret: String, path: String)
    }

    static func bootstrapAdminKey(_ config: ServiceConfig, pool: PostgresPool) throws -> AdminKey {
        let secret: String
        let origin: AdminKey
        if let key = config.adminKey {
            secret = key
            origin = .fromEnvironment
        } else {
            let file = AdminKeyFile(dataDirectory: config.dataDirectory)
            secret = try file.loadOrCreate { APIKeySecret.generate().value }
            origin = .stored(secret: secret, path: file.path)
        }
        let hash = APIKeySecret(secret).hash
        try pool.withConnectionBlocking { connection in
            try APIKeyRepository.upsertAdmin(id: "admin", name: "bootstrap admin", keyHash: hash, on: connection)
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
