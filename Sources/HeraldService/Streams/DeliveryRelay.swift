import Foundation
import HeraldCore
import HeraldHTTP
import HeraldObservability
import HeraldPostgres
import Synchronization

/// Hands queued deliveries to JetStream on a thread of its own: leases a batch from the queue (the same
/// skip-locked claim HTTP consumers use, so any number of relays and consumers share it), publishes
/// each to `herald.deliveries.<platform>` with `Nats-Msg-Id` = the delivery id without waiting for each
/// acknowledgement, then waits for them all. Acknowledged deliveries are marked relayed (handed off: `sent`);
/// the rest go back to the queue and are published again with the same id, which the stream's duplicate window
/// recognises, so each delivery reaches the stream effectively once. A commit that queued due deliveries wakes it
/// through the queue's ready channel; otherwise it polls, for deliveries that become due later.
final class DeliveryRelay: BackgroundService {
    let settings: StreamSettings
    let pool: PostgresPool
    /// Where the ready channel is listened to, on a connection of its own.
    let conninfo: String
    let logger: Logger
    let metrics: Metrics
    let clock: @Sendable () -> Date
    /// How long an empty queue waits for the ready channel before it is polled: at first, and after 20 empty rounds.
    let idlePolls: (first: Duration, later: Duration)
    private let loop = ServiceThread(name: "herald-nats-relay")
    /// What wakes the relay while it runs.
    private let waking = Mutex<ChannelWake?>(nil)

    init(
        settings: StreamSettings, pool: PostgresPool, conninfo: String, logger: Logger, metrics: Metrics,
        clock: @escaping @Sendable () -> Date,
        idlePolls: (first: Duration, later: Duration) = (.milliseconds(50), .milliseconds(200))
    ) {
        self.settings = settings
        self.pool = pool
        self.conninfo = conninfo
        self.logger = logger
        self.metrics = metrics
        self.clock = clock
        self.idlePolls = idlePolls
    }

    /// Seconds a relay round may hold its deliveries before another relay or consumer may take them.
    static let leaseSeconds = 60
    /// How long one round waits for the stream's acknowledgements.
    static let acknowledgementWaitMilliseconds: Int64 = 5_000

    var name: String { "nats delivery relay" }

    /// Listens to the ready channel, then relays until stopped; a lost connection is built again after a second.
    func start() throws {
        let wake = try ChannelWake(
            conninfo: conninfo, channel: DeliveryRepository.readyChannel, threadName: "herald-nats-relay-listen"
        ) { [loop] in loop.notify() }
        waking.withLock { $0 = wake }
        loop.startRepeating { [self] in
            try relay(on: try connect())
            return .zero
        } recover: { [self] error in
            logger.warning("nats delivery relay restarts", ["error": .string(String(describing: error))])
            return .seconds(1)
        }
    }

    /// Finishes the round in hand and stops.
    func stop() {
        loop.stop()
        waking.withLock { $0.take() }?.stop()
    }

    private func connect() throws -> NATSClient {
        let client = try NATSClient(servers: settings.servers, name: settings.clientName + "-relay")
        try client.ensureStream(
            name: settings.deliveriesStream, subjects: [StreamSettings.deliveriesPrefix + ".>"],
            replicas: settings.replicas)
        logger.info("relaying deliveries to nats", ["nats.stream": .string(settings.deliveriesStream)])
        return client
    }

    /// Relays round after round until stopped.
    private func relay(on client: NATSClient) throws {
        var idle = 0
        while loop.isRunning {
            // Read before the round, so a commit notified while it runs wakes the wait below at once.
            let seen = loop.generation
            let relayed = try round(client)
            // An empty queue waits for the ready channel, and is polled after `idlePolls` (50 ms, 200 ms) regardless.
            idle = relayed == 0 ? idle + 1 : 0
            if idle > 0 { loop.wait(since: seen, timeout: idle < 20 ? idlePolls.first : idlePolls.later) }
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
            loop.pause(.milliseconds(250))
        }
        return ids.count
    }

    static let counter = "herald_nats_deliveries_total"
    static let help = "Deliveries published to NATS: relayed (acknowledged) or retried (sent again later)."
}
