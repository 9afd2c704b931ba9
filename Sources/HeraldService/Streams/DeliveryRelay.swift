import Foundation
import HeraldHTTP
import HeraldObservability
import HeraldPostgres

/// Hands queued deliveries to JetStream on a thread of its own: leases a batch from the queue (the same
/// skip-locked claim HTTP consumers use, so any number of relays and consumers share it), publishes
/// each to `herald.deliveries.<platform>` with `Nats-Msg-Id` = the delivery id without waiting for each
/// acknowledgement, then waits for them all. Acknowledged deliveries are marked relayed (handed off: `sent`);
/// the rest go back to the queue and are published again with the same id, which the stream's duplicate window
/// recognises, so each delivery reaches the stream effectively once.
final class DeliveryRelay: Sendable {
    private let settings: StreamSettings
    private let pool: PostgresPool
    private let logger: Logger
    private let metrics: Metrics
    private let clock: @Sendable () -> Date
    private let loop = ServiceThread(name: "herald-nats-relay")

    /// Seconds a relay round may hold its deliveries before another relay or consumer may take them.
    static let leaseSeconds = 60
    /// How long one round waits for the stream's acknowledgements.
    static let acknowledgementWaitMilliseconds: Int64 = 5_000

    /// Starts relaying at once.
    init(
        settings: StreamSettings, pool: PostgresPool, logger: Logger, metrics: Metrics,
        clock: @escaping @Sendable () -> Date
    ) {
        self.settings = settings
        self.pool = pool
        self.logger = logger
        self.metrics = metrics
        self.clock = clock
        loop.start { [self] in run() }
    }

    /// Finishes the round in hand and stops.
    func stop() {
        loop.stop()
    }

    private var isRunning: Bool { loop.isRunning }

    private func run() {
        while isRunning {
            do {
                let client = try NATSClient(servers: settings.servers, name: settings.clientName + "-relay")
                try client.ensureStream(
                    name: settings.deliveriesStream, subjects: [StreamSettings.deliveriesPrefix + ".>"],
                    replicas: settings.replicas)
                logger.info("relaying deliveries to nats", ["nats.stream": .string(settings.deliveriesStream)])
                var idle = 0
                while isRunning {
                    let relayed = try round(client)
                    // An empty queue is polled every 50 ms at first, then every 200 ms.
                    idle = relayed == 0 ? idle + 1 : 0
                    if idle > 0 { pause(seconds: idle < 20 ? 0.05 : 0.2) }
                }
            } catch {
                logger.warning("nats delivery relay restarts", ["error": .string(String(describing: error))])
                pause(seconds: 1)
            }
        }
    }

    /// Leases, publishes and settles one batch; returns how many were claimed.
    private func round(_ client: NATSClient) throws -> Int {
        // Settling names this lease, so rows whose lease ran out and went to another consumer stay theirs.
        let leaseId = "relay-" + Hex.encode(SecureRandom.bytes(count: 16))
        let claim = try pool.withConnectionBlocking { [settings, clock] connection in
            try DeliveryRepository.claim(
                platform: nil, limit: settings.batchSize, leaseSeconds: Self.leaseSeconds, leaseId: leaseId,
                now: clock(), on: connection)
        }
        guard !claim.leased.isEmpty else { return 0 }
        let messages = claim.leased.map { RelayedDelivery.message($0) }
        let acknowledged = client.publishAll(messages, maxWaitMilliseconds: Self.acknowledgementWaitMilliseconds)
        let ids = claim.leased.map(\.id)
        let relayed = ids.filter(acknowledged.contains)
        let unacknowledged = ids.filter { !acknowledged.contains($0) }
        try pool.withConnectionBlocking { [clock] connection in
            try RelayRepository.settle(
                relayed: relayed, unacknowledged: unacknowledged, leaseId: leaseId, now: clock(), on: connection)
        }
        metrics.increment(Self.counter, help: Self.help, labels: ["outcome": "relayed"], by: Double(relayed.count))
        if !unacknowledged.isEmpty {
            metrics.increment(
                Self.counter, help: Self.help, labels: ["outcome": "retried"], by: Double(unacknowledged.count))
            logger.warning(
                "nats did not acknowledge every delivery; they go back to the queue",
                ["relay.unacknowledged": .int(unacknowledged.count)])
            pause(seconds: 0.25)
        }
        return ids.count
    }

    private func pause(seconds: Double) { loop.pause(seconds: seconds) }

    static let counter = "herald_nats_deliveries_total"
    static let help = "Deliveries published to NATS: relayed (acknowledged) or retried (sent again later)."
}
