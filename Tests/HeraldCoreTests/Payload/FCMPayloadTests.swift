import Foundation
import Testing

@testable import HeraldCore

@Suite struct FCMPayloadTests {
    static func message(_ content: PushContent) -> [String: Any] {
        Fixture.parse(FCMPayload.body(for: content, token: "tok")!)!["message"] as! [String: Any]
    }

    @Test func systemAlertIsANotificationMessageWithTagChannelAndCount() {
        let message = Self.message(APNsPayloadTests.content())
        let notification = message["notification"] as? [String: String]
        #expect(notification == ["title": "Asha", "body": "Hello"])
        let android = message["android"] as! [String: Any]
        #expect(android["priority"] as? String == "high")
        #expect(android["ttl"] as? String == "86400s")
        // "msg:42" names a burst (not the notification itself), so FCM may collapse on it.
        #expect(android["collapse_key"] as? String == "msg:42")
        let androidNotification = android["notification"] as! [String: Any]
        #expect(androidNotification["tag"] as? String == "msg:42")
        #expect(androidNotification["channel_id"] as? String == "messages")
        #expect(androidNotification["notification_count"] as? Int == 3)
        let data = message["data"] as! [String: String]
        #expect(data["badge"] == "3" && data["v"] == "1" && data["kind"] == "alert")
        let apns = message["apns"] as! [String: Any]
        let headers = apns["headers"] as! [String: String]
        #expect(headers["apns-push-type"] == "alert" && headers["apns-priority"] == "10")
        #expect(headers["apns-collapse-id"] == "msg:42")
        let aps = (apns["payload"] as! [String: Any])["aps"] as! [String: Any]
        // The title and body reach Apple devices through `notification`; aps carries the rest.
        #expect(aps["alert"] == nil)
        #expect(aps["badge"] as? Int == 3 && aps["thread-id"] as? String == "42")
    }

    @Test func appModeIsADataMessageWithFallbackText() {
        let message = Self.message(APNsPayloadTests.content(mode: .app))
        #expect(message["notification"] == nil)
        let data = message["data"] as! [String: String]
        #expect(data["fallback_body"] == "Hello")
        let aps = ((message["apns"] as! [String: Any])["payload"] as! [String: Any])["aps"] as! [String: Any]
        #expect(aps["mutable-content"] as? Int == 1)
        #expect((aps["alert"] as? [String: String])?["body"] == "Hello")
    }

    @Test func withdrawIsNormalPriorityBackgroundData() {
        let message = Self.message(APNsPayloadTests.content(.withdraw))
        #expect((message["android"] as! [String: Any])["priority"] as? String == "normal")
        let data = message["data"] as! [String: String]
        #expect(data["withdraw"] == #"["msg:42","msg:43"]"#)
        #expect(data["kind"] == "withdraw")
        let apns = message["apns"] as! [String: Any]
        #expect(
            apns["headers"] as? [String: String] == [
                "apns-push-type": "background", "apns-priority": "5",
                "apns-expiration": String(Int(instant(2026, 6, 2, 12).timeIntervalSince1970)),
            ])
        #expect(((apns["payload"] as! [String: Any])["aps"] as? [String: Int]) == ["content-available": 1])
    }

    @Test(arguments: [(Category.Priority.high, false, "high"), (.normal, false, "normal"), (.high, true, "normal")])
    func androidPriorityIsHighOnlyForUrgentVisibleAlerts(priority: Category.Priority, silenced: Bool, expected: String)
    {
        let message = Self.message(APNsPayloadTests.content(priority: priority, silenced: silenced))
        #expect((message["android"] as! [String: Any])["priority"] as? String == expected)
    }

    @Test func ttlIsCappedAtTwentyEightDays() {
        var content = APNsPayloadTests.content()
        content.expiresAt = Fixture.now + 40 * 86_400
        #expect((Self.message(content)["android"] as! [String: Any])["ttl"] as? String == "2419200s")
    }

    @Test func eventDataNeverBecomesANonStringValue() {
        var content = APNsPayloadTests.content(.digest)
        content.count = 12
        let data = Self.message(content)["data"] as! [String: Any]
        #expect(data["count"] as? String == "12")
        #expect(data.values.allSatisfy { $0 is String })
    }
}
