import Foundation
import HeraldObservability
import HeraldPostgres

/// Starts the NATS event consumer and the delivery relay of `herald serve` as configured, on a small connection
/// pool of their own so that NATS traffic never waits behind HTTP handlers.
final class StreamsService: Sendable {
    private let pool: PostgresPool
    private let consumer: EventStreamConsumer?
    private let relay: DeliveryRelay?

    /// `nil` when NATS is not configured or both parts are off.
    static func start(context: ServiceContext, conninfo: String) throws -> StreamsService? {
        let config = context.config
        guard config.natsEnabled, config.natsEvents || config.natsRelay else { return nil }
        return try StreamsService(context: context, conninfo: conninfo)
    }

    private init(context: ServiceContext, conninfo: String) throws {
        let config = context.config
        let settings = StreamSettings(config: config)
        pool = try PostgresPool(
            PostgresPool.Configuration(conninfo: conninfo, size: 2, threadName: "herald-nats-pg"))
        consumer =
            config.natsEvents
            ? EventStreamConsumer(
                settings: settings, pool: pool, backlog: BacklogMonitor(limit: config.eventBacklogLimit),
                logger: context.logger, metrics: context.metrics, clock: context.clock) : nil
        relay =
            config.natsRelay
            ? DeliveryRelay(
                settings: settings, pool: pool, logger: context.logger, metrics: context.metrics,
                clock: context.clock) : nil
        context.logger.info(
            "nats started",
            [
                "nats.servers": .string(settings.servers.joined(separator: ",")),
                "nats.events": .bool(config.natsEvents), "nats.relay": .bool(config.natsRelay),
            ])
    }

    /// Stops consuming and relaying (each finishes the round in hand), then closes the pool.
    func stop() {
        consumer?.stop()
        relay?.stop()
        pool.close()
    }
}
