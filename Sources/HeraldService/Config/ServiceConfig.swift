import Foundation
import HeraldCore
import HeraldHTTP

/// Everything `herald serve` needs, read once from the environment and flags and validated before anything starts.
public struct ServiceConfig: Sendable, Equatable {
    /// PostgreSQL connection string; `nil` runs an embedded cluster under `dataDirectory`.
    public var databaseURL: String?
    /// Folder for the embedded database, generated tz data and the bootstrap admin key.
    public var dataDirectory: String
    /// Address the HTTP server binds to.
    public var httpHost: String
    /// Port the HTTP server binds to; 0 picks a free one.
    public var httpPort: Int
    /// An admin API key to create or update at start, from `HERALD_ADMIN_KEY` or `HERALD_ADMIN_KEY_FILE`.
    public var adminKey: String?
    /// Simultaneous HTTP connections accepted.
    public var httpConnectionLimit: Int
    /// Seconds an idle HTTP connection stays open.
    public var httpIdleTimeoutSeconds: Int
    /// Simultaneous HTTP connections from one client address (0: no limit of its own).
    public var httpConnectionsPerAddress = 256
    /// Seconds a connection has to send a request's headers, from its opening or its previous response.
    public var httpHeaderTimeoutSeconds = 10
    /// Bytes per second a request body still arriving after the header timeout must have averaged (0: no floor).
    public var httpMinimumBodyRate = 16 * 1024
    /// Largest accepted request body in bytes.
    public var maxBodyBytes: Int
    /// PostgreSQL connections in the pool.
    public var databasePoolSize: Int
    /// Milliseconds a statement may run before the server cancels it (0: no limit).
    public var databaseStatementTimeoutMilliseconds: Int = 30_000
    /// Milliseconds a statement may wait for a row or table lock (0: no limit).
    public var databaseLockTimeoutMilliseconds: Int = 5_000
    /// Milliseconds a request waits for a free pool connection before it is answered 503.
    public var databasePoolWaitMilliseconds: Int = 5_000
    /// Folder of `NNNN_name.sql` migrations; `nil` searches the usual places.
    public var migrationsDirectory: String?
    /// Seconds in-flight requests get to finish at shutdown.
    public var shutdownGraceSeconds: Int
    /// Lowest log level written: debug, info, warning or error.
    public var logLevel: String
    /// Pipeline workers deciding events (0 runs none: ingest only).
    public var pipelineWorkers: Int = 4
    /// Events one worker claims and decides per transaction.
    public var pipelineBatchSize: Int = 500
    /// Undecided events at which ingest answers 503 with Retry-After.
    public var eventBacklogLimit: Int = 100_000
    /// Keys that sign and verify client tokens, the first one signing; empty generates one into the data folder.
    public var clientTokenKeys: [ClientTokenKey] = []
    /// Default lifetime of a minted client token, in seconds.
    public var clientTokenTTLSeconds: Int = 3600
    /// Recipients per campaign batch (one inbox event each).
    public var campaignBatchSize: Int = 5_000
    /// The shortest time, in seconds, one campaign wave's batches are spread over.
    public var campaignMinWaveSeconds: Int = 60
    /// Days events, decisions, digests and finished deliveries are kept; older day partitions are dropped.
    public var retentionDays: Int = 30
    /// NATS servers (`nats://host:port`) of one cluster; empty runs without NATS.
    public var natsServers: [String] = []
    /// The JetStream stream events are read from (created with `natsEventsSubject` when missing).
    public var natsEventsStream = "HERALD_EVENTS"
    /// The subject (wildcards allowed) the durable consumer reads events on.
    public var natsEventsSubject = "herald.events.>"
    /// The durable pull consumer's name, shared by every instance.
    public var natsConsumer = "herald"
    /// Where messages that are not acceptable events go, with the reason in a header.
    public var natsDeadLetterSubject = "herald.dead.events"
    /// The JetStream stream that keeps dead letters (created over `natsDeadLetterSubject` when missing).
    public var natsDeadLetterStream = "HERALD_DEAD"
    /// Whether this instance consumes events from NATS (when servers are set).
    public var natsEvents = true
    /// Whether this instance relays queued deliveries to `herald.deliveries.<platform>`.
    public var natsRelay = false
    /// The JetStream stream the relay publishes into (created over `herald.deliveries.>` when missing).
    public var natsDeliveriesStream = "HERALD_DELIVERIES"
    /// Replicas of the streams Herald creates.
    public var natsReplicas = 1
    /// Messages fetched, or deliveries relayed, per round.
    public var natsBatchSize = 256
    /// The decision policy's global limits (user-wide budget, background pushes, digest window): the one value
    /// every decider of the service, the pipeline's and the preview's, is built with.
    public var policy = DeciderConfig()
    /// Unknown API keys one client address may present before it is answered 429; nil for no limit.
    public var authFailureLimit: AuthFailureLimiter.Limit? = AuthFailureLimiter.Limit(count: 30, period: .seconds(60))
    /// The reverse proxies whose `X-Forwarded-For` names the client; none by default.
    public var trustedProxies: TrustedProxies = .none
    /// Where `/metrics` is served instead of the API port; nil serves it on the API port.
    public var metricsAddress: MetricsAddress?

    /// The defaults of DESIGN.md: embedded database under `.herald/`, HTTP on 127.0.0.1:8080.
    public static let defaults = ServiceConfig(
        databaseURL: nil, dataDirectory: ".herald", httpHost: "127.0.0.1", httpPort: 8080, adminKey: nil,
        httpConnectionLimit: 1024, httpIdleTimeoutSeconds: 30, maxBodyBytes: 1 << 20,
        databasePoolSize: 8, migrationsDirectory: nil, shutdownGraceSeconds: 10, logLevel: "info")
}

/// One problem found in the configuration, naming the variable or flag.
public struct ConfigProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The environment variable (and matching flag) at fault.
    public var setting: String
    /// What is wrong with it.
    public var message: String

    public var description: String { "\(setting): \(message)" }
}

extension ServiceConfig {
    /// The settings by environment variable name, with the flag that overrides each.
    static let settings: [(env: String, flag: String)] = [
        ("DATABASE_URL", "--database-url"), ("HERALD_DATA_DIR", "--data-dir"), ("HERALD_HTTP_ADDR", "--http-addr"),
        ("HERALD_HTTP_CONNECTION_LIMIT", "--http-connection-limit"),
        ("HERALD_HTTP_IDLE_TIMEOUT", "--http-idle-timeout"), ("HERALD_MAX_BODY_BYTES", "--max-body-bytes"),
        ("HERALD_HTTP_CONNECTIONS_PER_ADDRESS", "--http-connections-per-address"),
        ("HERALD_HTTP_HEADER_TIMEOUT", "--http-header-timeout"),
        ("HERALD_HTTP_MIN_BODY_RATE", "--http-min-body-rate"),
        ("HERALD_DB_POOL_SIZE", "--db-pool-size"), ("HERALD_DB_STATEMENT_TIMEOUT_MS", "--db-statement-timeout-ms"),
        ("HERALD_DB_LOCK_TIMEOUT_MS", "--db-lock-timeout-ms"), ("HERALD_DB_POOL_WAIT_MS", "--db-pool-wait-ms"),
        ("HERALD_MIGRATIONS_DIR", "--migrations-dir"),
        ("HERALD_SHUTDOWN_GRACE", "--shutdown-grace"), ("HERALD_LOG_LEVEL", "--log-level"),
        ("HERALD_PIPELINE_WORKERS", "--pipeline-workers"), ("HERALD_PIPELINE_BATCH_SIZE", "--pipeline-batch-size"),
        ("HERALD_EVENT_BACKLOG_LIMIT", "--event-backlog-limit"),
        ("HERALD_CLIENT_TOKEN_KEYS", "--client-token-keys"), ("HERALD_CLIENT_TOKEN_TTL", "--client-token-ttl"),
        ("HERALD_CAMPAIGN_BATCH_SIZE", "--campaign-batch-size"),
        ("HERALD_CAMPAIGN_MIN_WAVE_SECONDS", "--campaign-min-wave-seconds"),
        ("HERALD_RETENTION_DAYS", "--retention-days"),
        ("HERALD_NATS_URL", "--nats-url"), ("HERALD_NATS_EVENTS_STREAM", "--nats-events-stream"),
        ("HERALD_NATS_EVENTS_SUBJECT", "--nats-events-subject"), ("HERALD_NATS_CONSUMER", "--nats-consumer"),
        ("HERALD_NATS_DEAD_LETTER_SUBJECT", "--nats-dead-letter-subject"),
        ("HERALD_NATS_DEAD_LETTER_STREAM", "--nats-dead-letter-stream"), ("HERALD_NATS_EVENTS", "--nats-events"),
        ("HERALD_NATS_RELAY", "--nats-relay"), ("HERALD_NATS_DELIVERIES_STREAM", "--nats-deliveries-stream"),
        ("HERALD_NATS_REPLICAS", "--nats-replicas"), ("HERALD_NATS_BATCH_SIZE", "--nats-batch-size"),
        ("HERALD_USER_RATE_LIMIT", "--user-rate-limit"), ("HERALD_SILENT_PUSHES_PER_HOUR", "--silent-pushes-per-hour"),
        ("HERALD_DIGEST_WINDOW_SECONDS", "--digest-window-seconds"),
        ("HERALD_AUTH_FAILURE_LIMIT", "--auth-failure-limit"), ("HERALD_METRICS_ADDR", "--metrics-addr"),
        ("HERALD_TRUSTED_PROXIES", "--trusted-proxies"),
    ]

    /// Reads the configuration from `environment`, overridden by `--flag value` or `--flag=value` arguments.
    /// Every problem is reported together.
    public static func load(
        environment: [String: String], arguments: [String]
    ) -> Result<ServiceConfig, ConfigProblems> {
        var problems: [ConfigProblem] = []
        var values: [String: String] = [:]
        for (env, _) in settings { if let v = environment[env] { values[env] = v } }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            if let problem = Self.secretFlagProblem(parts[0]) {
                problems.append(problem)
                // Skip the value too, so it is not reported (and echoed) as an unknown option.
                if parts.count == 1, index < arguments.count, !arguments[index].hasPrefix("--") { index += 1 }
                continue
            }
            guard let setting = settings.first(where: { $0.flag == parts[0] }) else {
                problems.append(ConfigProblem(setting: argument, message: "unknown option"))
                continue
            }
            if parts.count == 2 {
                values[setting.env] = parts[1]
            } else if index < arguments.count {
                values[setting.env] = arguments[index]
                index += 1
            } else {
                problems.append(ConfigProblem(setting: setting.flag, message: "needs a value"))
            }
        }
        var config = ServiceConfig.defaults
        config.apply(values, problems: &problems)
        config.applyAdminKey(environment, problems: &problems)
        return problems.isEmpty ? .success(config) : .failure(ConfigProblems(problems: problems))
    }

    private mutating func apply(_ values: [String: String], problems: inout [ConfigProblem]) {
        if let url = values["DATABASE_URL"] {
            if url.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append(ConfigProblem(setting: "DATABASE_URL", message: "is empty"))
            } else {
                databaseURL = url
            }
        }
        if let dir = values["HERALD_DATA_DIR"] {
            if dir.isEmpty {
                problems.append(ConfigProblem(setting: "HERALD_DATA_DIR", message: "is empty"))
            } else {
                dataDirectory = dir
            }
        }
        if let addr = values["HERALD_HTTP_ADDR"] {
            switch Self.parseAddress(addr) {
            case .some((let host, let port)): (httpHost, httpPort) = (host, port)
            case .none:
                problems.append(
                    ConfigProblem(setting: "HERALD_HTTP_ADDR", message: "must be IPv4:port, e.g. 127.0.0.1:8080"))
            }
        }
        Self.integer(values, "HERALD_HTTP_CONNECTION_LIMIT", 1...100_000, &httpConnectionLimit, &problems)
        Self.integer(values, "HERALD_HTTP_IDLE_TIMEOUT", 1...3600, &httpIdleTimeoutSeconds, &problems)
        Self.integer(
            values, "HERALD_HTTP_CONNECTIONS_PER_ADDRESS", 0...100_000, &httpConnectionsPerAddress, &problems)
        Self.integer(values, "HERALD_HTTP_HEADER_TIMEOUT", 1...3600, &httpHeaderTimeoutSeconds, &problems)
        Self.integer(values, "HERALD_HTTP_MIN_BODY_RATE", 0...(1 << 30), &httpMinimumBodyRate, &problems)
        Self.integer(values, "HERALD_MAX_BODY_BYTES", 1024...(64 << 20), &maxBodyBytes, &problems)
        Self.integer(values, "HERALD_DB_POOL_SIZE", 1...256, &databasePoolSize, &problems)
        applyDatabaseTimeouts(values, problems: &problems)
        Self.integer(values, "HERALD_SHUTDOWN_GRACE", 0...600, &shutdownGraceSeconds, &problems)
        Self.integer(values, "HERALD_PIPELINE_WORKERS", 0...64, &pipelineWorkers, &problems)
        Self.integer(values, "HERALD_PIPELINE_BATCH_SIZE", 1...5_000, &pipelineBatchSize, &problems)
        Self.integer(values, "HERALD_EVENT_BACKLOG_LIMIT", 1...100_000_000, &eventBacklogLimit, &problems)
        Self.integer(values, "HERALD_CAMPAIGN_BATCH_SIZE", 1...5_000, &campaignBatchSize, &problems)
        Self.integer(values, "HERALD_CAMPAIGN_MIN_WAVE_SECONDS", 0...86_400, &campaignMinWaveSeconds, &problems)
        Self.integer(values, "HERALD_RETENTION_DAYS", 1...3_650, &retentionDays, &problems)
        if let dir = values["HERALD_MIGRATIONS_DIR"] { migrationsDirectory = dir }
        Self.integer(
            values, "HERALD_CLIENT_TOKEN_TTL", 60...ClientToken.longestLifetimeSeconds, &clientTokenTTLSeconds,
            &problems)
        if let keys = values["HERALD_CLIENT_TOKEN_KEYS"] {
            // The message never echoes the value: it holds secrets.
            if let parsed = ClientTokenKey.parseList(keys) {
                clientTokenKeys = parsed
            } else {
                problems.append(
                    ConfigProblem(
                        setting: "HERALD_CLIENT_TOKEN_KEYS",
                        message: "must be kid:base64secret[,kid:base64secret…] with distinct key ids "
                            + "(1 to 32 of A-Z a-z 0-9 - _) and secrets of at least 32 bytes"))
            }
        }
        applyNATS(values, problems: &problems)
        applyPolicy(values, problems: &problems)
        applyEdge(values, problems: &problems)
        if let level = values["HERALD_LOG_LEVEL"] {
            if ["debug", "info", "warning", "error"].contains(level) {
                logLevel = level
            } else {
                problems.append(
                    ConfigProblem(setting: "HERALD_LOG_LEVEL", message: "must be debug, info, warning or error"))
            }
        }
    }

    static func integer(
        _ values: [String: String], _ name: String, _ range: ClosedRange<Int>, _ target: inout Int,
        _ problems: inout [ConfigProblem]
    ) {
        guard let text = values[name] else { return }
        guard let value = Int(text), range.contains(value) else {
            problems.append(
                ConfigProblem(
                    setting: name, message: "must be an integer from \(range.lowerBound) to \(range.upperBound)"))
            return
        }
        target = value
    }

    /// The HTTP server's settings, on `port` (0 picks a free one).
    func httpServerConfiguration(port: UInt16) -> HTTPServerConfiguration {
        HTTPServerConfiguration(
            host: httpHost, port: port, connectionLimit: httpConnectionLimit,
            connectionsPerAddress: min(httpConnectionsPerAddress, httpConnectionLimit),
            idleTimeout: .seconds(httpIdleTimeoutSeconds), headerTimeout: .seconds(httpHeaderTimeoutSeconds),
            minimumBodyRate: httpMinimumBodyRate, maxBodyBytes: maxBodyBytes, trustedProxies: trustedProxies)
    }

    /// Parses `host:port` where host is a dotted IPv4 address.
    static func parseAddress(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ Int($0).map { (0...255).contains($0) } ?? false }) else {
            return nil
        }
        return (host, port)
    }
}

/// All configuration problems found at start.
public struct ConfigProblems: Error, Sendable, Equatable, CustomStringConvertible {
    /// Each problem, in the order found.
    public var problems: [ConfigProblem]

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
