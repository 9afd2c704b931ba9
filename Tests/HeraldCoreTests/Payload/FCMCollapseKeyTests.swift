import Foundation
import Testing

@testable import HeraldCore

/// `android.collapse_key` only for a burst's pushes (FCM keeps at most 4 keys per device), and the `apns` override
/// block held to the APNs rules for every kind of content.
@Suite struct FCMCollapseKeyTests {
    static func android(_ content: PushContent) throws -> [String: Any] {
        let body = try #require(FCMPayload.body(for: content, token: "tok"))
        let message = try #require(Fixture.parse(body)?["message"] as? [String: Any])
        return try #require(message["android"] as? [String: Any])
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var content: PushContent
        var collapsesBurst: Bool
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "first alert of a burst", content: Golden.content(.alert, mode: .system), collapsesBurst: true),
        Row(name: "app-built burst alert", content: Golden.content(.alert, mode: .app), collapsesBurst: true),
        Row(name: "digest", content: Golden.content(.digest, mode: .combined), collapsesBurst: true),
        Row(
            name: "single alert of a category that does not collapse",
            content: Golden.content(.silencedSingle, mode: .system), collapsesBurst: false),
        Row(name: "withdrawal", content: Golden.content(.withdraw, mode: .system), collapsesBurst: false),
        Row(name: "badge only", content: Golden.content(.badge, mode: .system), collapsesBurst: false),
    ]

    @Test(arguments: rows)
    func collapseKeyOnlyForBursts(_ row: Row) throws {
        #expect(row.content.collapsesBurst == row.collapsesBurst)
        let android = try Self.android(row.content)
        #expect(android["collapse_key"] as? String == (row.collapsesBurst ? "msg:42" : nil))
        if row.content.isVisible, row.content.mode != .app {
            // Replacement in the drawer keeps working through the tag, burst or not.
            let notification = android["notification"] as? [String: Any]
            #expect(notification?["tag"] as? String == row.content.collapseId)
        }
    }

    @Test func anAlertWithoutACollapseIdHasNoKey() throws {
        var content = Golden.content(.alert, mode: .system)
        content.collapseId = nil
        #expect(!content.collapsesBurst)
        #expect(try Self.android(content)["collapse_key"] == nil)
    }

    @Test func theDeciderMarksOnlyCollapsingCategoriesAsBursts() throws {
        let devices = [Fixture.device("android", platform: .fcm)]
        let collapsing = Fixture.category(collapse: .init(keyTemplate: "msg:{thread_id}", windowSeconds: 300))
        for (category, key) in [(collapsing, "msg:42"), (Fixture.category(), nil)] {
            let result = Fixture.decider().decide(
                event: Fixture.event("e1"), category: category, recipients: ["u1"],
                states: ["u1": Fixture.state(devices: devices)], now: Fixture.now)
            let delivery = try #require(result.deliveries.first)
            let message = try #require(Fixture.parse(delivery.body)?["message"] as? [String: Any])
            let android = try #require(message["android"] as? [String: Any])
            #expect(android["collapse_key"] as? String == key)
            let tag = (android["notification"] as? [String: Any])?["tag"] as? String
            #expect(tag == result.decisions[0].collapseId)
        }
    }

    @Test(arguments: ["msg:42", "likes.post-7_x", String(repeating: "k", count: 32)])
    func shortSafeIdsAreTheirOwnKey(id: String) {
        #expect(CollapseIdentifier.fcmCollapseKey(for: id) == id)
    }

    @Test(arguments: [
        String(repeating: "k", count: 33), "conversation:" + String(repeating: "9", count: 60), "wiadomość:42",
        "a b", "a/b", "",
    ])
    func otherIdsAreHashedToAShortSafeKey(id: String) {
        let key = CollapseIdentifier.fcmCollapseKey(for: id)
        #expect(key.hasPrefix("h-") && key.utf8.count == CollapseIdentifier.fcmCollapseKeyMaxLength)
        #expect(key.dropFirst(2).allSatisfy { $0.isHexDigit })
        #expect(key == CollapseIdentifier.fcmCollapseKey(for: id), "stable, so a digest collapses onto its alert")
        #expect(key != CollapseIdentifier.fcmCollapseKey(for: id + "x"))
    }

    @Test func aLongBurstIdIsHashedInBothTheKeyAndTheAPNsBlock() throws {
        var content = Golden.content(.digest, mode: .system)
        content.collapseId = CollapseIdentifier.apns(for: "conversation:" + String(repeating: "7", count: 80))
        let body = try #require(FCMPayload.body(for: content, token: "tok"))
        let message = try #require(Fixture.parse(body)?["message"] as? [String: Any])
        let android = try #require(message["android"] as? [String: Any])
        #expect(android["collapse_key"] as? String == CollapseIdentifier.fcmCollapseKey(for: content.collapseId!))
        #expect((android["collapse_key"] as? String)?.count == 32)
        let headers = (message["apns"] as? [String: Any])?["headers"] as? [String: String]
        #expect(headers?["apns-collapse-id"] == content.collapseId)
        #expect((headers?["apns-collapse-id"]?.utf8.count ?? 0) <= CollapseIdentifier.apnsMaxBytes)
    }

    /// Every purpose × mode × priority × level × quiet-hours combination: the `apns` block carries exactly the
    /// headers a direct APNs push would (less topic and id, which FCM supplies), and `data` holds only strings.
    @Test(arguments: PushContent.Purpose.allCases, Category.DeliveryMode.allCases)
    func theAPNsBlockObeysTheAPNsRules(purpose: PushContent.Purpose, mode: Category.DeliveryMode) throws {
        for priority in Category.Priority.allCases {
            for level in Category.InterruptionLevel.allCases {
                for silenced in [false, true] {
                    let content = APNsPayloadTests.content(
                        purpose, mode: mode, priority: priority, level: level, silenced: silenced)
                    let body = try #require(FCMPayload.body(for: content, token: "tok"))
                    let message = try #require(Fixture.parse(body)?["message"] as? [String: Any])
                    let data = try #require(message["data"] as? [String: Any])
                    #expect(data.values.allSatisfy { $0 is String })
                    let apns = try #require(message["apns"] as? [String: Any])
                    let headers = try #require(apns["headers"] as? [String: String])
                    var direct = APNsPayload.headers(for: content, bundleId: "com.example.chat", installationId: "d")
                    direct["apns-topic"] = nil
                    direct["apns-id"] = nil
                    #expect(headers == direct)
                    let aps = try #require((apns["payload"] as? [String: Any])?["aps"] as? [String: Any])
                    if purpose == .withdraw || purpose == .badge {
                        #expect(headers["apns-priority"] == "5")
                    }
                    if headers["apns-push-type"] == "background" {
                        #expect(aps.keys.sorted() == ["content-available"])
                    }
                    #expect(aps["sound"] == nil || !(silenced || level == .passive))
                }
            }
        }
    }

    @Test(arguments: [
        (false, Category.InterruptionLevel.active, true), (true, .active, false), (false, .passive, false),
    ])
    func androidPlaysTheDefaultSoundOnlyForAudibleAlerts(
        silenced: Bool, level: Category.InterruptionLevel, sound: Bool
    ) throws {
        let content = APNsPayloadTests.content(level: level, silenced: silenced)
        let notification = try Self.android(content)["notification"] as? [String: Any]
        #expect((notification?["default_sound"] as? Bool == true) == sound)
    }
}
