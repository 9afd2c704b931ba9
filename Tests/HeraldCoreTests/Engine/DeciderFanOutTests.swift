import Foundation
import Testing

@testable import HeraldCore

@Suite struct DeciderFanOutTests {
    static func decide(
        _ state: RecipientState, category: HeraldCore.Category = Fixture.category(), event: Event = Fixture.event()
    ) -> DecisionResult {
        Fixture.decider().decide(
            event: event, category: category, recipients: ["u1"], states: ["u1": state], now: Fixture.now)
    }

    @Test func everyActiveDeviceGetsOnePushWithTheAbsoluteBadge() {
        let devices = [
            Fixture.device("ios", platform: .apns), Fixture.device("android", platform: .fcm),
            Fixture.device("web", platform: .webpush), Fixture.device("win", platform: .wns),
            Fixture.device("old", platform: .apns, active: false),
            Fixture.device("someone-else", user: "u2", platform: .apns),
        ]
        let result = Self.decide(Fixture.state(devices: devices, unread: 4))
        #expect(result.deliveries.map(\.installationId).sorted() == ["android", "ios", "web", "win"])
        #expect(result.decisions[0].badge == 5)
        #expect(result.changes.unreadCounts["u1"] == 5)
        let apns = result.deliveries.first { $0.platform == .apns }!
        #expect((Fixture.parse(apns.body)?["aps"] as? [String: Any])?["badge"] as? Int == 5)
        let fcm = Fixture.parse(result.deliveries.first { $0.platform == .fcm }!.body)?["message"] as? [String: Any]
        #expect((fcm?["data"] as? [String: String])?["badge"] == "5")
        // Every push of one notification shares its id and collapse id, so any of them can be replaced or withdrawn.
        #expect(Set(result.deliveries.map(\.notificationId)).count == 1)
        #expect(Set(result.deliveries.map(\.collapseId)) == [result.decisions[0].collapseId])
    }

    /// The decision names the thread its pushes are grouped by, whether the event named it or the category's thread
    /// key template gave it: the shell records that thread, and a read of it must find the notification.
    @Test(arguments: [("7", "7"), (nil, "conversation:42"), (nil, nil)] as [(String?, String?)])
    func theDecisionCarriesTheThreadOfItsPushes(eventThread: String?, expected: String?) {
        var category = Fixture.category()
        category.threadKeyTemplate = expected == nil ? nil : "conversation:{data.conversation_id}"
        var event = Fixture.event(thread: eventThread)
        event.data["conversation_id"] = .string("42")
        let result = Self.decide(Fixture.state(), category: category, event: event)
        #expect(result.decisions[0].threadId == expected)
        let aps = Fixture.parse(result.deliveries[0].body)?["aps"] as? [String: Any]
        #expect(aps?["thread-id"] as? String == expected)
    }

    @Test func badgeRules() {
        var quiet = Fixture.category()
        quiet.countsTowardBadge = false
        #expect(Self.decide(Fixture.state(unread: 2), category: quiet).decisions[0].badge == 2)
        let off = Self.decide(Fixture.state(unread: 2, badge: false))
        #expect(off.decisions[0].badge == nil)
        #expect((Fixture.parse(off.deliveries[0].body)?["aps"] as? [String: Any])?["badge"] == nil)
        // A corrupt negative count is never sent below zero.
        #expect(Self.decide(Fixture.state(unread: -7)).decisions[0].badge == 1)
    }

    @Test func textFollowsTheLocaleChainPerDevice() {
        let devices = [
            Fixture.device("pl", locale: "pl-PL"), Fixture.device("fr", locale: "fr-FR"), Fixture.device("none"),
        ]
        let result = Self.decide(Fixture.state(devices: devices, locale: "de"))
        func body(_ id: String) -> String? {
            let delivery = result.deliveries.first { $0.installationId == id }!
            return ((Fixture.parse(delivery.body)?["aps"] as? [String: Any])?["alert"] as? [String: Any])?["body"]
                as? String
        }
        #expect(body("pl") == "Wiadomość: Hello")
        #expect(body("fr") == "Hello")
        #expect(body("none") == "Hello")
    }

    @Test func aFailingTemplateFallsBackToTheNextLocaleAndNeverSendsNothing() {
        var category = Fixture.category()
        category.templates["pl"]?.body = "{missing}"
        let result = Self.decide(Fixture.state(devices: [Fixture.device("pl", locale: "pl")]), category: category)
        let alert = (Fixture.parse(result.deliveries[0].body)?["aps"] as? [String: Any])?["alert"] as? [String: Any]
        #expect(alert?["body"] as? String == "Hello")
        #expect(alert?["title"] as? String == "Asha")
        var broken = Fixture.category()
        broken.templates = ["en": LocalizedTemplates(title: "{nope}", body: "{nope}")]
        let fallback = Self.decide(Fixture.state(), category: broken)
        let text = (Fixture.parse(fallback.deliveries[0].body)?["aps"] as? [String: Any])?["alert"] as? [String: Any]
        #expect(text?["body"] as? String == "Chat message")
    }

    @Test(arguments: [
        (HeraldCore.Category.DeliveryMode.system, true, "Hello", false),
        (.app, true, "New message", true), (.app, false, "Hello", false),
        (.combined, true, "Hello", true), (.combined, false, "Hello", false),
    ])
    func deliveryModeMeetsTheDeviceCapability(
        mode: HeraldCore.Category.DeliveryMode, appBuilds: Bool, body: String, mutable: Bool
    ) {
        let result = Self.decide(
            Fixture.state(devices: [Fixture.device("d", appBuilds: appBuilds)]), category: Fixture.category(mode: mode))
        let aps = Fixture.parse(result.deliveries[0].body)?["aps"] as? [String: Any]
        #expect((aps?["alert"] as? [String: Any])?["body"] as? String == body)
        #expect((aps?["mutable-content"] != nil) == mutable)
    }

    @Test func recipientsAreDedupedInOrderAndTheActorIsRecorded() {
        let event = Event(
            id: "e1", category: "chat.message", recipients: .init(userIds: ["u2", "u1", "u2", "actor"], topic: "room"),
            actor: "actor", occurredAt: Fixture.now)
        let recipients = Decider.recipients(of: event, topicSubscribers: ["u3", "u1", "actor"])
        #expect(recipients == ["u2", "u1", "actor", "u3"])
        let states = ["u1": Fixture.state("u1"), "u2": Fixture.state("u2")]
        let result = Fixture.decider().decide(
            event: event, category: Fixture.category(), recipients: recipients + ["u1"], states: states,
            now: Fixture.now)
        #expect(result.decisions.map(\.userId) == ["u2", "u1", "actor", "u3"])
        #expect(result.decisions.map(\.outcome) == [.delivered, .delivered, .suppressedActor, .suppressedUnknownUser])
    }

    @Test func identifiersAreDeterministicAcrossReprocessing() {
        let first = Self.decide(Fixture.state())
        let second = Self.decide(Fixture.state())
        #expect(first.deliveries == second.deliveries)
        #expect(first.decisions == second.decisions)
    }
}
