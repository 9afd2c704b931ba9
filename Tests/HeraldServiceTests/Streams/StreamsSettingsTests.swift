import Foundation
import Testing

@testable import HeraldPostgres
@testable import HeraldService

/// The `HERALD_NATS_*` settings and how a fetched batch of messages is judged, without a server.
@Suite("NATS settings and inbound messages")
struct StreamsSettingsTests {
    @Test func theNATSSettingsAreReadAndChecked() throws {
        let config = try ServiceConfig.load(
            environment: [
                "HERALD_NATS_URL": "nats://10.0.0.1:4222, nats://10.0.0.2:4222", "HERALD_NATS_RELAY": "on",
                "HERALD_NATS_REPLICAS": "3", "HERALD_NATS_EVENTS_SUBJECT": "app.events.*",
                "HERALD_NATS_DEAD_LETTER_STREAM": "APP_DEAD",
            ], arguments: []
        ).get()
        #expect(config.natsServers == ["nats://10.0.0.1:4222", "nats://10.0.0.2:4222"])
        #expect(config.natsRelay && config.natsEvents && config.natsEnabled)
        #expect(config.natsReplicas == 3)
        #expect(config.natsEventsSubject == "app.events.*")
        #expect(StreamSettings(config: config).deadLetterStream == "APP_DEAD")
        #expect(ServiceConfig.defaults.natsDeadLetterStream == "HERALD_DEAD")
        #expect(!ServiceConfig.defaults.natsEnabled)
    }

    @Test(arguments: [
        ["HERALD_NATS_URL": "http://x"],
        ["HERALD_NATS_URL": ""],
        ["HERALD_NATS_RELAY": "on"],
        ["HERALD_NATS_URL": "nats://a:4222", "HERALD_NATS_RELAY": "maybe"],
        ["HERALD_NATS_URL": "nats://a:4222", "HERALD_NATS_EVENTS_STREAM": "has.dot"],
        ["HERALD_NATS_URL": "nats://a:4222", "HERALD_NATS_EVENTS_SUBJECT": "a.>.b"],
        ["HERALD_NATS_URL": "nats://a:4222", "HERALD_NATS_DEAD_LETTER_SUBJECT": "dead.*"],
        ["HERALD_NATS_URL": "nats://a:4222", "HERALD_NATS_DEAD_LETTER_SUBJECT": "herald.events.dead"],
        ["HERALD_NATS_URL": "nats://a:4222", "HERALD_NATS_REPLICAS": "7"],
        ["HERALD_NATS_URL": "nats://a:4222", "HERALD_NATS_DEAD_LETTER_STREAM": "dead letters"],
    ])
    func badNATSSettingsAreRefused(_ environment: [String: String]) {
        guard case .failure(let problems) = ServiceConfig.load(environment: environment, arguments: []) else {
            Issue.record("accepted \(environment)")
            return
        }
        #expect(problems.problems.allSatisfy { $0.setting.hasPrefix("HERALD_NATS_") })
    }

    @Test func aBatchKeepsGoodEventsAndNamesWhyTheOthersAreRefused() {
        let good = Self.event(id: "e1", text: "hello")
        let bodies = [
            good, Array("[1,2]".utf8), Array("{oops".utf8), Self.event(id: "e2", text: "x", category: "UPPER"),
            good, Self.event(id: "e1", text: "changed"), Array(#"{"id":"e3","text":"a\u0000b"}"#.utf8),
        ]
        let batch = InboundEventBatch(bodies: bodies)
        #expect(batch.rows.map(\.id) == ["e1"])
        let verdicts = batch.verdicts([.accepted(seq: 1, acceptedAt: Date())])
        #expect(verdicts[0] == .accepted)
        #expect(verdicts[1] == .rejected("invalid: a message carries one event object"))
        #expect(verdicts[2] == .rejected("malformed: the body is not a JSON document"))
        guard case .rejected(let reason) = verdicts[3] else {
            Issue.record("an invalid category was accepted")
            return
        }
        #expect(reason.hasPrefix("invalid: /category"))
        #expect(verdicts[4] == .duplicate)
        #expect(verdicts[5] == .rejected("conflict: an event with this source and id has a different body"))
        #expect(verdicts[6] == .rejected("invalid: strings may not contain the NUL character (\\u0000)"))
    }

    @Test func storedOutcomesBecomeVerdicts() {
        let batch = InboundEventBatch(bodies: [Self.event(id: "a", text: "1"), Self.event(id: "b", text: "2")])
        let verdicts = batch.verdicts([.duplicate(seq: 1, acceptedAt: Date()), .unknownCategory])
        #expect(verdicts == [.duplicate, .rejected("invalid: /category: no category has this id")])
    }

    @Test func aRelayedDeliveryIsTheClaimedDeliveryWithoutTheLease() throws {
        let lease = DeliveryLease(
            id: "d1", notificationId: "n1", eventSource: "chat", eventId: "ev-1", userId: "u1",
            installationId: "ios-1", platform: "apns", environment: "production", token: "tok", kind: "alert",
            headersJSON: #"{"apns-push-type":"alert"}"#, body: #"{"aps":{}}"#, collapseId: nil, priority: 10,
            availableAt: Date(timeIntervalSince1970: 0), expiresAt: Date(timeIntervalSince1970: 60),
            leasedUntil: Date(timeIntervalSince1970: 30), leaseId: "relay-1", attempts: 1)
        let message = RelayedDelivery.message(lease)
        #expect(message.subject == "herald.deliveries.apns")
        #expect(message.headers.first?.name == "Nats-Msg-Id" && message.headers.first?.value == "d1")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(message.body)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "id", "notification_id", "event", "user_id", "installation_id", "platform", "environment", "token",
                "kind", "headers", "body", "priority", "available_at", "expires_at",
            ])
        #expect(object["body"] as? String == #"{"aps":{}}"#)
        #expect((object["headers"] as? [String: String])?["apns-push-type"] == "alert")
    }

    static func event(id: String, text: String, category: String = "chat.message") -> [UInt8] {
        Array(
            """
            {"id":"\(id)","source":"chat","category":"\(category)","occurred_at":"2026-12-01T09:00:00Z",
             "recipients":["u1"],"data":{"text":"\(text)"}}
            """.utf8)
    }
}
