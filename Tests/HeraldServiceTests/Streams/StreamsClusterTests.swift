import Foundation
import HeraldPostgres
import Synchronization
import Testing

@testable import HeraldService

/// Events in and deliveries out through a real three-node JetStream cluster, with one node stopped and started
/// again mid-load: nothing lost, nothing duplicated at the consumer after de-duplication by message id, and bad
/// messages in the dead-letter stream (which Herald creates) with their reason.
@Suite("NATS JetStream cluster", .serialized)
struct StreamsClusterTests {
    static let events = 3_000

    @Test func eventsInAndDeliveriesOutSurviveANodeRestart() async throws {
        let cluster = try NATSTestCluster()
        try cluster.start()
        defer { cluster.shutDown() }
        try await offCooperativePool {
            try cluster.ensureStream(name: "HERALD_EVENTS", subjects: ["herald.events.>"], replicas: 3)
        }
        let (conninfo, pool) = try await offCooperativePool {
            let conninfo = try TemporaryPostgres.freshDatabase()
            return (conninfo, try PostgresPool(conninfo: conninfo, size: 2))
        }
        defer { pool.close() }
        let key = "hk_nats_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let instances = try (0..<2).map { _ in try HeraldUnderTest(conninfo: conninfo, adminKey: key) }
        let environment = [
            "HERALD_NATS_URL": cluster.url, "HERALD_NATS_RELAY": "on", "HERALD_NATS_REPLICAS": "3",
            "HERALD_LOG_LEVEL": "info",
        ]
        do {
            for herald in instances { try await herald.start(workers: 2, environment: environment) }
            try await Self.run(cluster: cluster, pool: pool)
        } catch {
            for herald in instances { await herald.stop() }
            throw error
        }
        for herald in instances { await herald.stop() }
    }

    static func run(cluster: NATSTestCluster, pool: PostgresPool) async throws {
        let workload = EffectivelyOnceWorkload(users: 200, events: events, burstEvery: 0)
        try await workload.prepare(on: pool)
        let messages = (0..<events).map { index in
            OutgoingMessage(
                subject: "herald.events.load", body: Array(event(index, at: workload.start).utf8),
                messageId: "load-\(index)")
        }
        let bad = [
            OutgoingMessage(subject: "herald.events.load", body: Array("{not json".utf8), messageId: "bad-1"),
            OutgoingMessage(
                subject: "herald.events.load",
                body: Array(event(0, at: workload.start, category: "no.such.category", id: "bad-2").utf8),
                messageId: "bad-2"),
        ]
        let progress = StreamProgress()
        let clock = ContinuousClock()
        let started = clock.now
        let sender = DeliveryCollector(servers: cluster.servers)
        let collecting = Task { try await offCooperativePool { try sender.collect() } }
        let publishing = Task {
            try await offCooperativePool { try publish(bad + messages, servers: cluster.servers, progress: progress) }
        }
        // Mid-load, the second node goes away and comes back.
        try await waitUntil { progress.published.load(ordering: .relaxed) >= events / 3 }
        await offCooperativePool { cluster.stop(node: 1) }
        try await waitUntil { progress.published.load(ordering: .relaxed) >= 2 * events / 3 }
        try await offCooperativePool { try cluster.start(node: 1) }
        try await publishing.value
        try await waitUntil(deadline: .seconds(300)) { try await count("SELECT count(*) FROM events", pool) >= events }
        let storedIn = clock.now - started
        try await workload.waitUntilSettled(on: pool)
        let expected = try await count("SELECT count(*) FROM deliveries", pool)
        try await waitUntil(deadline: .seconds(300)) { sender.distinct >= expected }
        let deliveredOut = clock.now - started
        sender.stop()
        let received = try await collecting.value
        let dead = try await offCooperativePool { try DeliveryCollector.deadLetters(servers: cluster.servers) }

        let stored = try await count("SELECT count(*) FROM events", pool)
        let decided = try await count("SELECT count(*) FROM events WHERE state = 'decided'", pool)
        let relayed = try await count("SELECT count(*) FROM deliveries WHERE relayed_at IS NOT NULL", pool)
        let unrelayed = try await count("SELECT count(*) FROM deliveries WHERE state <> 'sent'", pool)
        let ids = try await pool.withConnection { connection in
            Set(try connection.query(Query(unsafeSQL: "SELECT id FROM deliveries")).map { try $0.string(0) })
        }
        let inRate = Double(events) / seconds(storedIn)
        let outRate = Double(expected) / seconds(deliveredOut)
        print(
            "nats cluster: \(events) events in at \(Int(inRate))/s (stored after \(storedIn)), \(expected) deliveries "
                + "out at \(Int(outRate))/s (all received after \(deliveredOut)), \(received.total) messages "
                + "received, \(received.total - received.ids.count) duplicates dropped by id, "
                + "\(progress.republished.load(ordering: .relaxed)) events published again, dead letters: \(dead)")
        #expect(stored == events)
        #expect(decided == events)
        #expect(expected > events)
        #expect(relayed == expected)
        #expect(unrelayed == 0)
        #expect(received.ids == ids)
        #expect(dead.count == 2)
        #expect(dead.contains { $0.hasPrefix("malformed") })
        #expect(dead.contains { $0.contains("no category has this id") })
    }

    /// One event as a message body.
    static func event(_ index: Int, at time: Date, category: String = "chat.message", id: String? = nil) -> String {
        PipelineHarness.event(
            id: id ?? "nats-\(index)", category: category, users: ["u\(index % 200 + 1)"], source: "nats",
            thread: nil, item: "item-\(index)", occurredAt: time, data: #"{"text":"message \#(index)"}"#)
    }

    /// Publishes every message, in rounds of 250, sending again (same message id) whatever was not acknowledged.
    static func publish(_ messages: [OutgoingMessage], servers: [String], progress: StreamProgress) throws {
        let client = try NATSClient(servers: servers, name: "herald-test-publisher")
        for start in stride(from: 0, to: messages.count, by: 250) {
            var round = Array(messages[start..<min(messages.count, start + 250)])
            var attempts = 0
            while !round.isEmpty {
                attempts += 1
                if attempts > 200 { throw NATSTestFailure(message: "events were never acknowledged") }
                let acknowledged = client.publishAll(round, maxWaitMilliseconds: 2_000)
                round.removeAll { acknowledged.contains($0.headers[0].value) }
                if !round.isEmpty {
                    progress.republished.add(round.count, ordering: .relaxed)
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
            progress.published.store(min(messages.count, start + 250), ordering: .relaxed)
        }
    }

    static func count(_ sql: String, _ pool: PostgresPool) async throws -> Int {
        try await pool.withConnection { try $0.query(Query(unsafeSQL: sql)).single().int(0) }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func waitUntil(
        deadline: Duration = .seconds(180), _ condition: @Sendable () async throws -> Bool
    ) async throws {
        let end = ContinuousClock.now + deadline
        while try await !condition() {
            guard ContinuousClock.now < end else { throw NATSTestFailure(message: "condition not met in time") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

/// How far the publisher got.
final class StreamProgress: Sendable {
    let published = Atomic<Int>(0)
    let republished = Atomic<Int>(0)
}

struct NATSTestFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
