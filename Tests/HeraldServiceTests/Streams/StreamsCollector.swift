import Foundation
import Synchronization

@testable import HeraldService

/// A push sender behind the delivery stream, as a test sees it: a durable pull consumer on
/// `herald.deliveries.>` that records every message id it receives (duplicates included) and acknowledges it.
final class DeliveryCollector: Sendable {
    struct Received: Sendable {
        var total = 0
        var ids: Set<String> = []
    }

    private let servers: [String]
    private let received = Mutex(Received())
    private let running = Atomic<Bool>(true)

    init(servers: [String]) {
        self.servers = servers
    }

    /// Distinct deliveries received so far.
    var distinct: Int { received.withLock { $0.ids.count } }

    func stop() { running.store(false, ordering: .relaxed) }

    /// Consumes until stopped, through node restarts; returns what it received.
    func collect() throws -> Received {
        let deadline = Date().addingTimeInterval(60)
        var subscription: NATSPullSubscription?
        var client: NATSClient?
        while subscription == nil {
            do {
                let made = try NATSClient(servers: servers, name: "herald-test-sender")
                try made.ensureStream(name: "HERALD_DELIVERIES", subjects: ["herald.deliveries.>"], replicas: 3)
                subscription = try made.pullSubscription(
                    stream: "HERALD_DELIVERIES", subject: "herald.deliveries.>", durable: "test-sender",
                    ackWaitSeconds: 30, maxAckPending: 10_000)
                client = made
            } catch {
                guard Date() < deadline else { throw error }
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
        while running.load(ordering: .relaxed) {
            guard let messages = try? subscription!.fetch(batch: 256, timeoutMilliseconds: 250) else {
                Thread.sleep(forTimeInterval: 0.1)
                continue
            }
            for message in messages {
                let id = message.header("Nats-Msg-Id") ?? ""
                received.withLock { received in
                    received.total += 1
                    received.ids.insert(id)
                }
                try? message.ack()
            }
        }
        _ = client
        return received.withLock { $0 }
    }

    /// The reasons of the messages in the dead-letter stream.
    static func deadLetters(servers: [String]) throws -> [String] {
        let client = try NATSClient(servers: servers, name: "herald-test-dead")
        let subscription = try client.pullSubscription(
            stream: "HERALD_DEAD", subject: "herald.dead.events", durable: "test-dead", ackWaitSeconds: 30,
            maxAckPending: 100)
        var reasons: [String] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, reasons.count < 2 {
            for message in try subscription.fetch(batch: 10, timeoutMilliseconds: 500) {
                reasons.append(message.header("Herald-Reason") ?? "")
                try? message.ack()
            }
        }
        return reasons
    }
}
