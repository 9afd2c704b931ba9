import Foundation
import Testing

@testable import HeraldCore

/// Web Push goldens: the exact RFC 8030 headers and JSON plaintext of every kind in every delivery mode, each also
/// checked against the Web Push rules it embodies. There is no badge-only Web Push: browsers require every push to
/// show a notification, so the decider sends badge-only pushes to APNs alone.
@Suite struct WebPushGoldenTests {
    static let cases: [GoldenCase] =
        GoldenCase.perMode(.alert, headers: alertHeaders, alertSystemBody, alertAppBody, alertCombinedBody)
        + GoldenCase.perMode(.digest, headers: digestHeaders, digestSystemBody, digestAppBody, digestCombinedBody)
        + GoldenCase.sameInEveryMode(.withdraw, headers: withdrawHeaders, body: withdrawBody)
        + GoldenCase.perMode(
            .silencedSingle, headers: silencedSingleHeaders, silencedSingleSystemBody, silencedSingleAppBody,
            silencedSingleCombinedBody)

    @Test(arguments: cases)
    func golden(_ golden: GoldenCase) throws {
        let content = Golden.content(golden.kind, mode: golden.mode)
        let delivery = try #require(Golden.delivery(golden.kind, mode: golden.mode, platform: .webpush))
        #expect(delivery.headers == golden.headers)
        #expect(delivery.bodyText == Golden.compact(golden.body))

        // The rules the golden embodies.
        let headers = delivery.headers
        #expect(delivery.body.count <= WebPushPayload.maxBodyBytes)
        #expect(headers["TTL"] == String(Golden.ttlSeconds(content)))
        let urgency = content.isUrgent ? "high" : content.isVisible && content.silenced ? "low" : "normal"
        #expect(headers["Urgency"] == urgency)
        #expect(delivery.priority == (content.isUrgent ? 10 : 5))
        let topic = try #require(headers["Topic"])
        #expect(topic.utf8.count <= CollapseIdentifier.webPushTopicMaxLength)
        #expect(topic.utf8.allSatisfy(CollapseIdentifier.isURLSafeBase64))
        let body = try #require(Fixture.parse(delivery.body))
        if content.isVisible {
            #expect(topic == CollapseIdentifier.webPushTopic(for: content.collapseId ?? ""))
            // The service worker shows the notification under this tag, replacing the one before.
            #expect(body["tag"] as? String == content.collapseId)
            #expect(body["app_builds"] as? Bool == (golden.mode != .system))
        } else {
            #expect(topic == CollapseIdentifier.webPushTopic(for: content.withdrawIds.last ?? ""))
            #expect(body["withdraw"] as? [String] == content.withdrawIds)
        }
        Golden.expectPlatformRules(delivery, content)
    }

    @Test func digestReplacesTheBurstsFirstAlertByTopicAndTag() {
        #expect(Self.alertHeaders["Topic"] == Self.digestHeaders["Topic"])
        // "msg:42" has a colon, outside the URL-safe alphabet, so the topic is its hash.
        #expect(Self.alertHeaders["Topic"] == CollapseIdentifier.webPushTopic(for: Golden.burstCollapseId))
        #expect(Self.alertHeaders["Topic"] != Golden.burstCollapseId)
    }
}

extension WebPushGoldenTests {
    static let alertHeaders: [String: String] = [
        "Content-Type": "application/json",
        "TTL": "86400",
        "Topic": "Tn5E03i9AMz4OSBRIwn-A4LrlG8vr3gp",
        "Urgency": "high",
    ]

    static let alertSystemBody = #"""
        {
            "app_builds": false,
            "badge": 4,
            "body": "Lunch at 1? \"Café\" <3",
            "cat": "chat.message",
            "cid": "msg:42",
            "item": "m7",
            "kind": "alert",
            "nid": "5d41402abc4b2a76b9719d911017c592",
            "silent": false,
            "tag": "msg:42",
            "thread": "conversation:42",
            "title": "Asha",
            "v": 1
        }
        """#

    static let alertAppBody = #"""
        {
            "app_builds": true,
            "badge": 4,
            "body": "New message",
            "cat": "chat.message",
            "cid": "msg:42",
            "item": "m7",
            "kind": "alert",
            "nid": "5d41402abc4b2a76b9719d911017c592",
            "silent": false,
            "tag": "msg:42",
            "thread": "conversation:42",
            "v": 1
        }
        """#

    static let alertCombinedBody = #"""
        {
            "app_builds": true,
            "badge": 4,
            "body": "Lunch at 1? \"Café\" <3",
            "cat": "chat.message",
            "cid": "msg:42",
            "item": "m7",
            "kind": "alert",
            "nid": "5d41402abc4b2a76b9719d911017c592",
            "silent": false,
            "tag": "msg:42",
            "thread": "conversation:42",
            "title": "Asha",
            "v": 1
        }
        """#

    static let digestHeaders: [String: String] = [
        "Content-Type": "application/json",
        "TTL": "86100",
        "Topic": "Tn5E03i9AMz4OSBRIwn-A4LrlG8vr3gp",
        "Urgency": "high",
    ]

    static let digestSystemBody = #"""
        {
            "app_builds": false,
            "badge": 6,
            "body": "From Asha and 2 others",
            "cat": "chat.message",
            "cid": "msg:42",
            "count": 3,
            "item": "m9",
            "kind": "digest",
            "nid": "7b8b965ad4bca0e41ab51de7b31363a1",
            "silent": false,
            "tag": "msg:42",
            "title": "3 new messages",
            "v": 1
        }
        """#

    static let digestAppBody = #"""
        {
            "app_builds": true,
            "badge": 6,
            "body": "From Asha and 2 others",
            "cat": "chat.message",
            "cid": "msg:42",
            "count": 3,
            "item": "m9",
            "kind": "digest",
            "nid": "7b8b965ad4bca0e41ab51de7b31363a1",
            "silent": false,
            "tag": "msg:42",
            "title": "3 new messages",
            "v": 1
        }
        """#

    static let digestCombinedBody = #"""
        {
            "app_builds": true,
            "badge": 6,
            "body": "From Asha and 2 others",
            "cat": "chat.message",
            "cid": "msg:42",
            "count": 3,
            "item": "m9",
            "kind": "digest",
            "nid": "7b8b965ad4bca0e41ab51de7b31363a1",
            "silent": false,
            "tag": "msg:42",
            "title": "3 new messages",
            "v": 1
        }
        """#

    static let withdrawHeaders: [String: String] = [
        "Content-Type": "application/json",
        "TTL": "86400",
        "Topic": "a87ff679a2f3e71d9181a67b7542122c",
        "Urgency": "normal",
    ]

    /// The same bytes in every delivery mode.
    static let withdrawBody = #"""
        {
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

    static let silencedSingleHeaders: [String: String] = [
        "Content-Type": "application/json",
        "TTL": "86400",
        "Topic": "a87ff679a2f3e71d9181a67b7542122c",
        "Urgency": "low",
    ]

    static let silencedSingleSystemBody = #"""
        {
            "app_builds": false,
            "badge": 5,
            "body": "Are you around?",
            "cat": "chat.mention",
            "cid": "a87ff679a2f3e71d9181a67b7542122c",
            "item": "m8",
            "kind": "alert",
            "nid": "a87ff679a2f3e71d9181a67b7542122c",
            "silent": true,
            "tag": "a87ff679a2f3e71d9181a67b7542122c",
            "thread": "conversation:42",
            "title": "Asha",
            "v": 1
        }
        """#

    static let silencedSingleAppBody = #"""
        {
            "app_builds": true,
            "badge": 5,
            "body": "New mention",
            "cat": "chat.mention",
            "cid": "a87ff679a2f3e71d9181a67b7542122c",
            "item": "m8",
            "kind": "alert",
            "nid": "a87ff679a2f3e71d9181a67b7542122c",
            "silent": true,
            "tag": "a87ff679a2f3e71d9181a67b7542122c",
            "thread": "conversation:42",
            "v": 1
        }
        """#

    static let silencedSingleCombinedBody = #"""
        {
            "app_builds": true,
            "badge": 5,
            "body": "Are you around?",
            "cat": "chat.mention",
            "cid": "a87ff679a2f3e71d9181a67b7542122c",
            "item": "m8",
            "kind": "alert",
            "nid": "a87ff679a2f3e71d9181a67b7542122c",
            "silent": true,
            "tag": "a87ff679a2f3e71d9181a67b7542122c",
            "thread": "conversation:42",
            "title": "Asha",
            "v": 1
        }
        """#
}
