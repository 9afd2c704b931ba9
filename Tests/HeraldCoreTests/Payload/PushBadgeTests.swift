import Foundation
import Testing

@testable import HeraldCore

/// A held push is handed out with the unread count of that moment, in every place its platform carries the badge.
@Suite struct PushBadgeTests {
    let decided = Fixture.now
    var morning: Date { decided.addingTimeInterval(8 * 3_600) }

    /// Every purpose and mode of push, as the builders make it with `badge`.
    static func contents(badge: Int) -> [PushContent] {
        var contents: [PushContent] = []
        for purpose in [PushContent.Purpose.alert, .digest, .withdraw, .badge] {
            for mode in Category.DeliveryMode.allCases {
                var content = APNsPayloadTests.content(purpose, mode: mode)
                content.badge = badge
                contents.append(content)
            }
        }
        return contents
    }

    static func body(_ content: PushContent, _ platform: Device.Platform) -> String? {
        PayloadBuilder.delivery(for: content, to: Golden.device(platform), userId: "u1")?.bodyText
    }

    @Test(arguments: Device.Platform.allCases)
    func aHeldPushSaysTheCountOfItsHandOutAsIfBuiltWithIt(platform: Device.Platform) throws {
        let held = Self.contents(badge: 3)
        let current = Self.contents(badge: 12)
        for (old, new) in zip(held, current) {
            let body = try #require(Self.body(old, platform))
            let expected = try #require(Self.body(new, platform))
            let handed = PushBadge.handedOut(
                platform: platform, body: body, createdAt: decided, availableAt: morning, unread: 12)
            #expect(handed == expected, "\(platform) \(old.purpose) \(old.mode)")
        }
    }

    @Test(arguments: Device.Platform.allCases)
    func aPushThatDidNotWaitKeepsItsOwnCount(platform: Device.Platform) throws {
        let body = try #require(Self.body(Self.contents(badge: 3)[0], platform))
        #expect(
            PushBadge.handedOut(platform: platform, body: body, createdAt: decided, availableAt: decided, unread: 12)
                == body)
        #expect(
            PushBadge.handedOut(platform: platform, body: body, createdAt: decided, availableAt: morning, unread: nil)
                == body)
    }

    @Test func aPushHandedOutAgainIsAsLateAsAHeldOne() throws {
        let body = try #require(Self.body(Self.contents(badge: 3)[0], .apns))
        let again = PushBadge.handedOut(
            platform: .apns, body: body, createdAt: decided, availableAt: decided, attempt: 2, unread: 12)
        #expect(again == Self.body(Self.contents(badge: 12)[0], .apns))
    }

    @Test(arguments: Device.Platform.allCases)
    func aPushWithoutABadgeGetsNone(platform: Device.Platform) throws {
        var content = APNsPayloadTests.content(.alert)
        content.badge = nil
        let body = try #require(Self.body(content, platform))
        #expect(
            PushBadge.handedOut(platform: platform, body: body, createdAt: decided, availableAt: morning, unread: 12)
                == body)
    }

    @Test func aNegativeCountIsShownAsNone() throws {
        let body = try #require(Self.body(Self.contents(badge: 3)[0], .apns))
        let handed = PushBadge.handedOut(
            platform: .apns, body: body, createdAt: decided, availableAt: morning, unread: -2)
        #expect(handed == Self.body(Self.contents(badge: 0)[0], .apns))
    }

    @Test func aBodyThatWouldOutgrowItsLimitIsLeftAsItWas() {
        let padding = String(repeating: "x", count: APNsPayload.maxBodyBytes - 30)
        let body = #"{"aps":{"badge":1},"p":"\#(padding)"}"#
        #expect(body.utf8.count <= APNsPayload.maxBodyBytes)
        let handed = PushBadge.handedOut(
            platform: .apns, body: body, createdAt: decided, availableAt: morning, unread: 1_000_000_000)
        #expect(handed == body)
    }
}
