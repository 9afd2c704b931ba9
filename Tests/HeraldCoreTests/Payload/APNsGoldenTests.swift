import Foundation
import Testing

@testable import HeraldCore

/// APNs goldens: the exact headers and body bytes of every kind in every delivery mode, each also checked against
/// the APNs rules it embodies.
@Suite struct APNsGoldenTests {
    static let cases: [GoldenCase] =
        GoldenCase.perMode(.alert, headers: alertHeaders, alertSystemBody, alertAppBody, alertCombinedBody)
        + GoldenCase.perMode(.digest, headers: digestHeaders, digestSystemBody, digestAppBody, digestCombinedBody)
        + GoldenCase.sameInEveryMode(.withdraw, headers: withdrawHeaders, body: withdrawBody)
        + GoldenCase.sameInEveryMode(.badge, headers: badgeHeaders, body: badgeBody)
        + GoldenCase.perMode(
            .silencedSingle, headers: silencedSingleHeaders, silencedSingleSystemBody, silencedSingleAppBody,
            silencedSingleCombinedBody)

    @Test(arguments: cases)
    func golden(_ golden: GoldenCase) throws {
        let content = Golden.content(golden.kind, mode: golden.mode)
        let delivery = try #require(Golden.delivery(golden.kind, mode: golden.mode, platform: .apns))
        #expect(delivery.headers == golden.headers)
        #expect(delivery.bodyText == Golden.compact(golden.body))

        // The rules the golden embodies.
        let headers = delivery.headers
        #expect(delivery.body.count <= APNsPayload.maxBodyBytes)
        #expect(delivery.kind == content.purpose.deliveryKind)
        #expect(headers["apns-topic"] == "com.example.chat")
        #expect(headers["apns-expiration"] == Golden.expirationSeconds(content))
        #expect(headers["apns-priority"] == (content.isUrgent ? "10" : "5"))
        #expect(delivery.priority == Int(headers["apns-priority"] ?? ""))
        let aps = try #require(Fixture.parse(delivery.body)?["aps"] as? [String: Any])
        if golden.kind == .withdraw {
            // Background: push type background, priority 5, and nothing in aps but content-available.
            #expect(headers["apns-push-type"] == "background" && headers["apns-priority"] == "5")
            #expect(aps.keys.sorted() == ["content-available"])
        } else {
            #expect(headers["apns-push-type"] == "alert")
        }
        if content.isVisible {
            #expect(headers["apns-collapse-id"] == content.collapseId)
            #expect((headers["apns-collapse-id"]?.utf8.count ?? 0) <= CollapseIdentifier.apnsMaxBytes)
            #expect((aps["mutable-content"] != nil) == (golden.mode != .system))
        } else {
            #expect(headers["apns-collapse-id"] == nil)
        }
        Golden.expectPlatformRules(delivery, content)
    }

    @Test func digestReplacesTheBurstsFirstAlertInPlace() {
        #expect(Self.alertHeaders["apns-collapse-id"] == Self.digestHeaders["apns-collapse-id"])
        #expect(Self.alertHeaders["apns-id"] != Self.digestHeaders["apns-id"])
    }
}

extension APNsGoldenTests {
    static let alertHeaders: [String: String] = [
        "apns-collapse-id": "msg:42",
        "apns-expiration": "1780401600",
        "apns-id": "f7d518eb-2be5-5971-93c7-c7f133ea3e65",
        "apns-priority": "10",
        "apns-push-type": "alert",
        "apns-topic": "com.example.chat",
    ]

    static let alertSystemBody = #"""
        {
            "aps": {
                "alert": {
                    "body": "Lunch at 1? \"Café\" <3",
                    "title": "Asha"
                },
                "badge": 4,
                "category": "MESSAGE",
                "interruption-level": "active",
                "sound": "default",
                "thread-id": "conversation:42"
            },
            "cat": "chat.message",
            "cid": "msg:42",
            "item": "m7",
            "kind": "alert",
            "nid": "5d41402abc4b2a76b9719d911017c592",
            "thread": "conversation:42",
            "v": 1
        }
        """#

    static let alertAppBody = #"""
        {
            "aps": {
                "alert": {
                    "body": "New message"
                },
                "badge": 4,
                "category": "MESSAGE",
                "interruption-level": "active",
                "mutable-content": 1,
                "sound": "default",
                "thread-id": "conversation:42"
            },
            "cat": "chat.message",
            "cid": "msg:42",
            "item": "m7",
            "kind": "alert",
            "nid": "5d41402abc4b2a76b9719d911017c592",
            "thread": "conversation:42",
            "v": 1
        }
        """#

    static let alertCombinedBody = #"""
        {
            "aps": {
                "alert": {
                    "body": "Lunch at 1? \"Café\" <3",
                    "title": "Asha"
                },
                "badge": 4,
                "category": "MESSAGE",
                "interruption-level": "active",
                "mutable-content": 1,
                "sound": "default",
                "thread-id": "conversation:42"
            },
            "cat": "chat.message",
            "cid": "msg:42",
            "item": "m7",
            "kind": "alert",
            "nid": "5d41402abc4b2a76b9719d911017c592",
            "thread": "conversation:42",
            "v": 1
        }
        """#

    static let digestHeaders: [String: String] = [
        "apns-collapse-id": "msg:42",
        "apns-expiration": "1780401600",
        "apns-id": "5cccc1e8-76a5-5d07-9da4-0da3942d0a25",
        "apns-priority": "10",
        "apns-push-type": "alert",
        "apns-topic": "com.example.chat",
    ]

    static let digestSystemBody = #"""
        {
            "aps": {
                "alert": {
                    "body": "From Asha and 2 others",
                    "title": "3 new messages"
                },
                "badge": 6,
                "category": "MESSAGE",
                "interruption-level": "active",
                "sound": "default"
            },
            "cat": "chat.message",
            "cid": "msg:42",
            "count": 3,
            "item": "m9",
            "kind": "digest",
            "nid": "7b8b965ad4bca0e41ab51de7b31363a1",
            "v": 1
        }
        """#

    static let digestAppBody = #"""
        {
            "aps": {
                "alert": {
                    "body": "From Asha and 2 others",
                    "title": "3 new messages"
                },
                "badge": 6,
                "category": "MESSAGE",
                "interruption-level": "active",
                "mutable-content": 1,
                "sound": "default"
            },
            "cat": "chat.message",
            "cid": "msg:42",
            "count": 3,
            "item": "m9",
            "kind": "digest",
            "nid": "7b8b965ad4bca0e41ab51de7b31363a1",
            "v": 1
        }
        """#

    static let digestCombinedBody = #"""
        {
            "aps": {
                "alert": {
                    "body": "From Asha and 2 others",
                    "title": "3 new messages"
                },
                "badge": 6,
                "category": "MESSAGE",
                "interruption-level": "active",
                "mutable-content": 1,
                "sound": "default"
            },
            "cat": "chat.message",
            "cid": "msg:42",
            "count": 3,
            "item": "m9",
            "kind": "digest",
            "nid": "7b8b965ad4bca0e41ab51de7b31363a1",
            "v": 1
        }
        """#

    static let withdrawHeaders: [String: String] = [
        "apns-expiration": "1780401600",
        "apns-id": "78852862-f714-5d78-afba-f9722bd95aee",
        "apns-priority": "5",
        "apns-push-type": "background",
        "apns-topic": "com.example.chat",
    ]

    /// The same bytes in every delivery mode.
    static let withdrawBody = #"""
        {
            "aps": {
                "content-available": 1
            },
            "badge": 2,
            "cat": "herald.read",
            "kind": "withdraw",
            "nid": "c4ca4238a0b923820dcc509a6f75849b",
            "v": 1,
            "withdraw": [
                "msg:42",
                "a87ff679a2f3e71d9181a67b7542122c"
            ]
        }
        """#

    static let badgeHeaders: [String: String] = [
        "apns-expiration": "1780401600",
        "apns-id": "fc6c56ca-ebcc-5b43-a96a-37dc06d80e01",
        "apns-priority": "5",
        "apns-push-type": "alert",
        "apns-topic": "com.example.chat",
    ]

    /// The same bytes in every delivery mode.
    static let badgeBody = #"""
        {
            "aps": {
                "badge": 2
            },
            "cat": "herald.read",
            "kind": "badge",
            "nid": "c81e728d9d4c2f636f067f89cc14862c",
            "v": 1
        }
        """#

    static let silencedSingleHeaders: [String: String] = [
        "apns-collapse-id": "a87ff679a2f3e71d9181a67b7542122c",
        "apns-expiration": "1780401600",
        "apns-id": "99a1c856-d36a-5f03-8334-08a7ad5dea05",
        "apns-priority": "5",
        "apns-push-type": "alert",
        "apns-topic": "com.example.chat",
    ]

    static let silencedSingleSystemBody = #"""
        {
            "aps": {
                "alert": {
                    "body": "Are you around?",
                    "title": "Asha"
                },
                "badge": 5,
                "category": "MENTION",
                "interruption-level": "passive",
                "thread-id": "conversation:42"
            },
            "cat": "chat.mention",
            "cid": "a87ff679a2f3e71d9181a67b7542122c",
            "item": "m8",
            "kind": "alert",
            "nid": "a87ff679a2f3e71d9181a67b7542122c",
            "thread": "conversation:42",
            "v": 1
        }
        """#

    static let silencedSingleAppBody = #"""
        {
            "aps": {
                "alert": {
                    "body": "New mention"
                },
                "badge": 5,
                "category": "MENTION",
                "interruption-level": "passive",
                "mutable-content": 1,
                "thread-id": "conversation:42"
            },
            "cat": "chat.mention",
            "cid": "a87ff679a2f3e71d9181a67b7542122c",
            "item": "m8",
            "kind": "alert",
            "nid": "a87ff679a2f3e71d9181a67b7542122c",
            "thread": "conversation:42",
            "v": 1
        }
        """#

    static let silencedSingleCombinedBody = #"""
        {
            "aps": {
                "alert": {
                    "body": "Are you around?",
                    "title": "Asha"
                },
                "badge": 5,
                "category": "MENTION",
                "interruption-level": "passive",
                "mutable-content": 1,
                "thread-id": "conversation:42"
            },
            "cat": "chat.mention",
            "cid": "a87ff679a2f3e71d9181a67b7542122c",
            "item": "m8",
            "kind": "alert",
            "nid": "a87ff679a2f3e71d9181a67b7542122c",
            "thread": "conversation:42",
            "v": 1
        }
        """#
}
