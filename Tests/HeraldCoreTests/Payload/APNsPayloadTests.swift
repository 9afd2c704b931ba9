import Foundation
import Testing

@testable import HeraldCore

@Suite struct APNsPayloadTests {
    static func content(
        _ purpose: PushContent.Purpose = .alert, mode: Category.DeliveryMode = .system,
        priority: Category.Priority = .high, level: Category.InterruptionLevel = .active, silenced: Bool = false
    ) -> PushContent {
        PushContent(
            purpose: purpose, mode: mode, notificationId: "0123456789abcdef0123456789abcdef", eventId: "e1",
            categoryId: "chat.message", title: "Asha", body: "Hello", badge: 3, silenced: silenced,
            interruptionLevel: level, priority: priority, threadId: "42", apnsCategory: "MESSAGE",
            androidChannelId: "messages", collapseId: "msg:42", itemId: "m1", count: purpose == .digest ? 3 : nil,
            withdrawIds: purpose == .withdraw ? ["msg:42", "msg:43"] : [], expiresAt: instant(2026, 6, 2, 12),
            availableAt: Fixture.now)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var content: PushContent
        var pushType: String
        var priority: String
        var collapseId: String?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "urgent alert", content: content(), pushType: "alert", priority: "10", collapseId: "msg:42"),
        Row(
            name: "normal alert", content: content(priority: .normal), pushType: "alert", priority: "5",
            collapseId: "msg:42"),
        Row(
            name: "passive alert", content: content(level: .passive), pushType: "alert", priority: "5",
            collapseId: "msg:42"),
        Row(
            name: "silenced alert", content: content(silenced: true), pushType: "alert", priority: "5",
            collapseId: "msg:42"),
        Row(name: "digest", content: content(.digest), pushType: "alert", priority: "10", collapseId: "msg:42"),
        Row(name: "withdraw", content: content(.withdraw), pushType: "background", priority: "5", collapseId: nil),
        Row(name: "badge only", content: content(.badge), pushType: "alert", priority: "5", collapseId: nil),
    ]

    @Test(arguments: rows)
    func headers(_ row: Row) {
        let headers = APNsPayload.headers(for: row.content, bundleId: "com.example.chat", installationId: "d1")
        #expect(headers["apns-push-type"] == row.pushType)
        #expect(headers["apns-priority"] == row.priority)
        #expect(headers["apns-collapse-id"] == row.collapseId)
        #expect(headers["apns-topic"] == "com.example.chat")
        #expect(headers["apns-expiration"] == String(Int(instant(2026, 6, 2, 12).timeIntervalSince1970)))
    }

    @Test func goldenSystemAlert() {
        let body = APNsPayload.body(for: Self.content())!
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"aps":{"alert":{"body":"Hello","title":"Asha"},"badge":3,"category":"MESSAGE","#
                + #""interruption-level":"active","sound":"default","thread-id":"42"},"cat":"chat.message","#
                + #""cid":"msg:42","item":"m1","kind":"alert","#
                + #""nid":"0123456789abcdef0123456789abcdef","thread":"42","v":1}"#
        )
    }

    @Test func goldenWithdraw() {
        let body = APNsPayload.body(for: Self.content(.withdraw))!
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"aps":{"content-available":1},"badge":3,"cat":"chat.message","item":"m1","kind":"withdraw","#
                + #""nid":"0123456789abcdef0123456789abcdef","thread":"42","v":1,"withdraw":["msg:42","msg:43"]}"#)
    }

    @Test func goldenBadgeOnly() {
        let body = APNsPayload.body(for: Self.content(.badge))!
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"aps":{"badge":3},"cat":"chat.message","item":"m1","kind":"badge","#
                + #""nid":"0123456789abcdef0123456789abcdef","thread":"42","v":1}"#)
    }

    @Test(arguments: Category.DeliveryMode.allCases)
    func mutableContentOnlyWhenTheAppTakesPart(mode: Category.DeliveryMode) {
        let aps = Fixture.parse(APNsPayload.body(for: Self.content(mode: mode))!)?["aps"] as? [String: Any]
        #expect((aps?["mutable-content"] as? Int == 1) == (mode != .system))
    }

    @Test func digestCarriesItsCount() {
        let root = Fixture.parse(APNsPayload.body(for: Self.content(.digest))!)!
        #expect(root["count"] as? Int == 3)
        #expect(root["kind"] as? String == "digest")
    }

    @Test func criticalAlertsUseTheCriticalSoundDictionary() {
        let aps = Fixture.parse(APNsPayload.body(for: Self.content(level: .critical))!)?["aps"] as? [String: Any]
        let sound = aps?["sound"] as? [String: Any]
        #expect(sound?["critical"] as? Int == 1)
        #expect(aps?["interruption-level"] as? String == "critical")
    }

    @Test func silencedAlertsArePassiveAndSoundless() {
        let aps = Fixture.parse(APNsPayload.body(for: Self.content(silenced: true))!)?["aps"] as? [String: Any]
        #expect(aps?["sound"] == nil)
        #expect(aps?["interruption-level"] as? String == "passive")
    }

    @Test func oversizedTextIsCutToFit() {
        var content = Self.content()
        content.body = String(repeating: "Zażółć gęślą jaźń 🇵🇱 ", count: 400)
        let body = APNsPayload.body(for: content)!
        #expect(body.count <= 4_096)
        #expect(body.count > 3_900)
        let alert = (Fixture.parse(body)?["aps"] as? [String: Any])?["alert"] as? [String: Any]
        #expect((alert?["body"] as? String)?.hasSuffix("…") == true)
        #expect(alert?["title"] as? String == "Asha")
    }

    @Test func apnsIdIsTheVersion5LayoutOfTheHash() {
        // SHA-256 of "n1\0d1\0alert", first 16 bytes, version and variant bits set, as 8-4-4-4-12.
        #expect(
            NotificationIdentity.apnsId(notificationId: "n1", installationId: "d1", purpose: .alert)
                == "05612a40-b99f-59bc-8ba0-5fad0e1b8795")
    }

    @Test func apnsIdsAreStableAndDistinctPerDevice() {
        let a = NotificationIdentity.apnsId(notificationId: "n", installationId: "d1", purpose: .alert)
        #expect(a == NotificationIdentity.apnsId(notificationId: "n", installationId: "d1", purpose: .alert))
        #expect(a != NotificationIdentity.apnsId(notificationId: "n", installationId: "d2", purpose: .alert))
        #expect(UUID(uuidString: a) != nil)
    }
}
