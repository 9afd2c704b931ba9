import Foundation
import Testing

@testable import HeraldService

/// libnats runs the publish acknowledgement handler on a thread of its own, and closing a connection does not wait
/// for a handler already running: the ledger it writes into must outlive the client.
@Suite("NATS client", .serialized)
struct NATSClientTests {
    @Test func thePublishLedgerOutlivesItsClient() throws {
        let cluster = try NATSTestCluster()
        defer { cluster.shutDown() }
        try cluster.start()
        try cluster.ensureStream(name: "LEDGER", subjects: ["ledger.>"], replicas: 1)
        weak var ledger: PublishLedger?
        do {
            let client = try NATSClient(servers: cluster.servers, name: "herald-test-ledger")
            ledger = client.ledger
            let messages = (0..<200).map { index in
                OutgoingMessage(
                    subject: "ledger.test", body: Array("m\(index)".utf8),
                    headers: [(name: "Nats-Msg-Id", value: "m\(index)")])
            }
            #expect(client.publishAll(messages, maxWaitMilliseconds: 10_000).count == messages.count)
        }
        #expect(ledger != nil, "the ledger went with its client while libnats may still call into it")
    }
}
