import Foundation
import HeraldCore
import Testing

@Suite("Recipient identifiers, mutes, cursors and staleness")
struct RecipientRulesTests {
    @Test(
        "Opaque identifiers",
        arguments: [
            ("u1", true), ("auth0|5f7c8ec7c33c6c004bbafe82", true), ("ana@example.com", true),
            ("tenant:42.user_7-x", true), (String(repeating: "a", count: 128), true),
            ("", false), (String(repeating: "a", count: 129), false), ("a b", false), ("a/b", false),
            ("ä", false), ("a%20", false), ("a\n", false),
        ])
    func identifiers(text: String, valid: Bool) {
        #expect(OpaqueIdentifier.isValid(text) == valid)
    }

    @Test("Topics may be longer than user ids")
    func topics() {
        let topic = "conversation:" + String(repeating: "9", count: 180)
        #expect(!OpaqueIdentifier.isValid(topic))
        #expect(OpaqueIdentifier.isValid(topic, maxLength: OpaqueIdentifier.maxTopicLength))
    }

    @Test("Weekday masks round-trip every subset")
    func weekdayMasks() {
        for mask in 0..<128 {
            let days = WeekdayMask.days(mask)
            #expect(WeekdayMask.mask(days) == mask)
        }
        #expect(WeekdayMask.mask([.mon]) == 1)
        #expect(WeekdayMask.mask([.sun]) == 64)
    }

    @Test("Subscriber cursors round-trip and reject anything else")
    func cursors() {
        for id in ["u1", "auth0|x", String(repeating: "z", count: 128), "a.b-c_d:e@f"] {
            let cursor = SubscriberCursor.encode(after: id)
            #expect(!cursor.contains("="))
            #expect(SubscriberCursor.decode(cursor) == id)
        }
        #expect(SubscriberCursor.decode("") == nil)
        #expect(SubscriberCursor.decode("!!!") == nil)
        #expect(SubscriberCursor.decode(SubscriberCursor.encode(after: "not valid")) == nil)
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(
        "Mute requests",
        arguments: [
            (MuteRequest(scope: .all), [String]()),
            (MuteRequest(scope: .all, key: "x"), ["/key"]),
            (MuteRequest(scope: .category, key: "chat.message"), []),
            (MuteRequest(scope: .category, key: "Chat Message"), ["/key"]),
            (MuteRequest(scope: .category), ["/key"]),
            (MuteRequest(scope: .thread, key: "conversation:42"), []),
            (MuteRequest(scope: .thread, key: "a\u{7}"), ["/key"]),
            (MuteRequest(scope: .thread), ["/key"]),
            (MuteRequest(scope: .all, until: now.addingTimeInterval(60)), []),
            (MuteRequest(scope: .all, until: now), ["/until"]),
            (MuteRequest(scope: .thread, until: now.addingTimeInterval(-1)), ["/key", "/until"]),
        ])
    func mutes(request: MuteRequest, pointers: [String]) {
        #expect(request.validate(now: Self.now).map(\.pointer) == pointers)
    }

    @Test("A device is stale after 270 days without registering")
    func staleness() {
        let day: TimeInterval = 86_400
        #expect(!DeviceStaleness.isStale(lastRegisteredAt: Self.now.addingTimeInterval(-270 * day), now: Self.now))
        #expect(DeviceStaleness.isStale(lastRegisteredAt: Self.now.addingTimeInterval(-270 * day - 1), now: Self.now))
    }
}
