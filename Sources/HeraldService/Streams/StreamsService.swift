import Foundation
import HeraldObservability
import HeraldPostgres
import Synchronization

/// The NATS event consumer and the delivery relay of `herald serve` as configured, on a small connection pool of
/// their own so that NATS traffic never waits behind HTTP handlers.
final class StreamsService: BackgroundService {
    /// What runs while started: the pool and the parts on it.
    private struct Running: Sendable {
        let pool: PostgresPool
        let parts: ServiceGroup
    }

    let name = "nats"
    private let context: ServiceContext
    private let conninfo: String
    private let running: Mutex<Running?> = Mutex(nil)

    /// `nil` when NATS is not configured or both parts are off.
    static func make(context: ServiceContext, conninfo: String) -> StreamsService? {
        let config = context.config
        guard config.natsEnabled, config.natsEvents || config.natsRelay else { return nil }
        return StreamsService(context: context, conninfo: conninfo)
    }

    private init(context: ServiceContext, conninfo: String) {
        self.context = context
        self.conninfo = conninfo
    }

    /// Opens the pool, then starts consuming and relaying as configured.
    func start() throws {
        let config = context.config
        let settings = StreamSettings(config: config)
        let pool = try PostgresPool(
            PostgresPool.Configuration(conninfo: conninfo, size: 2, threadName: "herald-nats-pg"))
        var parts: [any BackgroundService] = []
        if config.natsEvents {
            parts.append(
                EventStreamConsumer(
                    settings: settings, pool: pool, backlog: BacklogMonitor(limit: config.eventBacklogLimit),
                    logger: context.logger, metrics: context.metrics, clock: context.clock))
        }
        if config.natsRelay {
            parts.append(
                DeliveryRelay(
                    settings: settings, pool: pool, conninfo: conninfo, logger: context.logger,
                    metrics: context.metrics, clock: context.clock))
        }
        let group = ServiceGroup(name: name, parts)
        do {
            try group.start()
        } catch {
            pool.close()
            throw error
        }
        running.withLock { running in
            precondition(running == nil, "nats started twice")
            running = Running(pool: pool, parts: group)
        }
        context.logger.info(
            "nats started",
            [
                "nats.servers": .string(settings.servers.joined(separator: ",")),
                "nats.events": .bool(config.natsEvents), "nats.relay": .bool(config.natsRelay),
            ])
    }

    /// Stops relaying and consuming (each finishes the round in hand), then closes the pool.
    func stop() {
        guard let stopping = running.withLock({ $0.take() }) else { return }
        stopping.parts.stop()
        stopping.pool.close()
    }
}
