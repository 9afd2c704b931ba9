import Foundation
import HeraldHTTP
import HeraldObservability
import HeraldPostgres
import Testing

@testable import HeraldService

/// A relay that dies between the stream's acknowledgement and marking its deliveries relayed: its lease runs out,
/// another relay leases the same deliveries and publishes them again under the same ids, and the stream's duplicate
/// window keeps the consumer from ever seeing one twice.
@Suite("NATS relay crash window", .serialized)
struct StreamsRelayCrashTests {
    static let deliveries = 500

    @Test func deliveriesPublishedButNeverMarkedReachTheConsumerOnce() async throws {
        let cluster = try NATSTestCluster()
        try cluster.start()
        defer { cluster.shutDown() }
        let harness = try await PipelineHarness.make()
        defer { harness.close() }
        // Rows whose lease ran out go back to the queue only while their device is still its user's.
        try await harness.user("u1")
        try await harness.device("i1", user: "u1")
        _ = try await harness.sql(
            """
            INSERT INTO deliveries (id, user_id, installation_id, platform, environment, token, kind, headers, body,
                                    priority, created_at, available_at, expires_at)
            SELECT 'crash-' || g, 'u1', 'i1', 'apns', 'production', 't', 'alert', '{}', '{"aps":{}}', 10, $2,
                   $2::timestamptz - interval '1 second', $2::timestamptz + interval '1 day'
            FROM generate_series(1, $1) g
            """, [Self.deliveries, Date()])
        var config = ServiceConfig.defaults
        config.natsServers = cluster.servers
        config.natsReplicas = 3
        let settings = StreamSettings(config: config, clientName: "herald-test-relay")

        // The round that dies: leased and published (the stream acknowledged every message), never settled.
        let acknowledged = try await offCooperativePool { () -> Int in
            let client = try NATSClient(servers: settings.servers, name: "herald-test-crashed-relay")
            try client.ensureStream(
                name: settings.deliveriesStream, subjects: [StreamSettings.deliveriesPrefix + ".>"], replicas: 3)
            let claim = try harness.context.pool.withConnectionBlocking { connection in
                try DeliveryRepository.claim(
                    platform: nil, limit: Self.deliveries, leaseSeconds: DeliveryRelay.leaseSeconds,
                    leaseId: "relay-crashed", now: Date(), on: connection)
            }
            return client.publishAll(claim.leased.map(RelayedDelivery.message), maxWaitMilliseconds: 10_000).count
        }
        #expect(acknowledged == Self.deliveries)

        // The next relay runs after the lease ran out (its clock is past it) and publishes them all again.
        let collector = DeliveryCollector(servers: cluster.servers)
        let collecting = Task { try await offCooperativePool { try collector.collect() } }
        let relay = DeliveryRelay(
            settings: settings, pool: harness.context.pool, conninfo: harness.conninfo, logger: harness.context.logger,
            metrics: harness.context.metrics,
            clock: { Date().addingTimeInterval(Double(DeliveryRelay.leaseSeconds + 5)) })
        try relay.start()
        let deadline = ContinuousClock.now + .seconds(60)
        while try await harness.count("SELECT count(*) FROM deliveries WHERE relayed_at IS NOT NULL") < Self.deliveries,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(50))
        }
        await offCooperativePool { relay.stop() }
        while collector.distinct < Self.deliveries, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        // Room for a late duplicate to show up, had the stream let one through.
        try await Task.sleep(for: .seconds(1))
        collector.stop()
        let received = try await collecting.value
        let republished =
            harness.context.metrics.counterValue(
                "herald_nats_deliveries_total", labels: ["relayed"]) ?? -1
        print(
            "relay crash window: \(acknowledged) published by the dead relay, \(republished) published again, "
                + "\(received.total) received, \(received.ids.count) distinct")
        #expect(received.ids.count == Self.deliveries)
        #expect(received.total == Self.deliveries)
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE state = 'sent'") == Self.deliveries)
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE attempts = 2") == Self.deliveries)
    }
}
