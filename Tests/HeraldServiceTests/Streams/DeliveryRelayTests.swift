import Foundation
import HeraldCore
import HeraldPostgres
import Testing

@testable import HeraldService

/// An idle relay is woken by the commit that queues a due delivery, not by its next poll.
@Suite("NATS relay: the ready channel", .serialized)
struct DeliveryRelayTests {
    @Test func aDecidedEventWakesAnIdleRelay() async throws {
        let cluster = try NATSTestCluster()
        try cluster.start()
        defer { cluster.shutDown() }
        let harness = try await PipelineHarness.make()
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.device("phone", user: "u1")
        var config = ServiceConfig.defaults
        config.natsServers = cluster.servers
        config.natsReplicas = 3
        // Polls two minutes apart: within the deadlines below only a notification can wake it.
        let relay = DeliveryRelay(
            settings: StreamSettings(config: config, clientName: "herald-test-relay-wake"),
            pool: harness.context.pool, conninfo: harness.conninfo, logger: harness.context.logger,
            metrics: harness.context.metrics, clock: { [clock = harness.clock] in clock.now },
            idlePolls: (.seconds(120), .seconds(120)))
        try relay.start()
        // A notification sent before the relay listens would be lost, so the events wait until it does.
        try await waitUntil("the relay listens", seconds: 30) {
            try await harness.count(
                "SELECT count(*) FROM pg_stat_activity WHERE query = 'LISTEN \"herald_deliveries\"'") > 0
        }

        // The first event is relayed by the relay's first round, the second only if its commit wakes the relay,
        // which found the queue empty after the first.
        for id in ["first", "second"] {
            let accepted = await harness.send(
                .post, "/v1/events", json: PipelineHarness.event(id: id, occurredAt: harness.clock.now))
            #expect(accepted.status == .accepted)
            try await harness.decideAll()
            try await waitUntil("event \(id) relayed", seconds: 60) {
                try await harness.count(
                    "SELECT count(*) FROM deliveries WHERE event_id = $1 AND relayed_at IS NOT NULL", [id]) > 0
            }
        }
        await offCooperativePool { relay.stop() }
    }

    /// Looks every 50 ms until `condition` holds; records an issue after `seconds`.
    private func waitUntil(_ what: String, seconds: Int, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("waited \(seconds) s for \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
