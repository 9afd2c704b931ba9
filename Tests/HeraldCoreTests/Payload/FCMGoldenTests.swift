import Foundation
import Testing

@testable import HeraldCore

/// FCM HTTP v1 goldens: the exact request body of every kind in every delivery mode, each also checked against the
/// FCM rules it embodies and the APNs rules of its `apns` override block.
@Suite struct FCMGoldenTests {
    static let cases: [GoldenCase] =
        GoldenCase.perMode(.alert, headers: headers, alertSystemBody, alertAppBody, alertCombinedBody)
        + GoldenCase.perMode(.digest, headers: headers, digestSystemBody, digestAppBody, digestCombinedBody)
        + GoldenCase.sameInEveryMode(.withdraw, headers: headers, body: withdrawBody)
        + GoldenCase.sameInEveryMode(.badge, headers: headers, body: badgeBody)
        + GoldenCase.perMode(
            .silencedSingle, headers: headers, silencedSingleSystemBody, silencedSingleAppBody,
            silencedSingleCombinedBody)

    /// Everything FCM needs is in the body; the sender adds only its OAuth token.
    static let headers = ["Content-Type": "application/json"]

    @Test(arguments: cases)
    func golden(_ golden: GoldenCase) throws {
        let content = Golden.content(golden.kind, mode: golden.mode)
        let delivery = try #require(Golden.delivery(golden.kind, mode: golden.mode, platform: .fcm))
        #expect(delivery.headers == golden.headers)
        #expect(delivery.bodyText == Golden.compact(golden.body))

        // The rules the golden embodies.
        #expect(delivery.body.count <= FCMPayload.maxBodyBytes)
        let message = try #require(Fixture.parse(delivery.body)?["message"] as? [String: Any])
        #expect(message["token"] as? String == "fcm-token-d-fcm" && message["topic"] == nil)
        let data = try #require(message["data"] as? [String: Any])
        #expect(data.values.allSatisfy { $0 is String }, "every data value is a string")
        #expect(!data.keys.contains(where: FCMPayload.isReservedDataKey))
        let android = try #require(message["android"] as? [String: Any])
        #expect(android["ttl"] as? String == "\(Golden.ttlSeconds(content))s")
        #expect(android["priority"] as? String == (content.isUrgent ? "high" : "normal"))
        // A collapse key only for a burst's pushes: FCM keeps at most 4 per device.
        #expect(android["collapse_key"] as? String == (content.collapsesBurst ? "msg:42" : nil))
        let notification = android["notification"] as? [String: Any]
        if content.isVisible, golden.mode != .app {
            #expect(message["notification"] != nil)
            #expect(notification?["tag"] as? String == content.collapseId)
        } else {
            // Data message: the app posts, replaces or cancels the notification itself.
            #expect(message["notification"] == nil && notification == nil)
        }

        // The `apns` override block obeys the APNs rules.
        let apns = try #require(message["apns"] as? [String: Any])
        let apnsHeaders = try #require(apns["headers"] as? [String: String])
        #expect(apnsHeaders == APNsPayload.contentHeaders(for: content))
        #expect(apnsHeaders["apns-expiration"] == Golden.expirationSeconds(content))
        #expect(apnsHeaders["apns-priority"] == (content.isUrgent ? "10" : "5"))
        let aps = try #require((apns["payload"] as? [String: Any])?["aps"] as? [String: Any])
        if golden.kind == .withdraw {
            #expect(apnsHeaders["apns-push-type"] == "background" && apnsHeaders["apns-priority"] == "5")
            #expect(aps.keys.sorted() == ["content-available"])
        }
        if content.isVisible {
            #expect((apnsHeaders["apns-collapse-id"]?.utf8.count ?? 0) <= CollapseIdentifier.apnsMaxBytes)
        }
        Golden.expectPlatformRules(delivery, content)
    }
}

extension FCMGoldenTests {
    static let alertSystemBody = #"""
        {
            "message": {
                "android": {
                    "collapse_key": "msg:42",
                    "notification": {
                        "channel_id": "messages",
                        "default_sound": true,
                        "notification_count": 4,
                        "tag": "msg:42"
                    },
                    "priority": "high",
                    "ttl": "86400s"
                },
                "apns": {
                    "headers": {
                        "apns-collapse-id": "msg:42",
                        "apns-expiration": "1780401600",
                        "apns-priority": "10",
                        "apns-push-type": "alert"
                    },
                    "payload": {
                        "aps": {
                            "badge": 4,
                            "category": "MESSAGE",
                            "interruption-level": "active",
                            "sound": "default",
                            "thread-id": "conversation:42"
                        }
                    }
                },
                "data": {
                    "badge": "4",
                    "cat": "chat.message",
                    "cid": "msg:42",
                    "item": "m7",
                    "kind": "alert",
                    "nid": "5d41402abc4b2a76b9719d911017c592",
                    "thread": "conversation:42",
                    "v": "1"
                },
                "notification": {
                    "body": "Lunch at 1? \"Café\" <3",
                    "title": "Asha"
                },
                "token": "fcm-token-d-fcm"
            }
        }
        """#

    static let alertAppBody = #"""
        {
            "message": {
                "android": {
                    "collapse_key": "msg:42",
                    "priority": "high",
                    "ttl": "86400s"
                },
                "apns": {
                    "headers": {
                        "apns-collapse-id": "msg:42",
                        "apns-expiration": "1780401600",
                        "apns-priority": "10",
                        "apns-push-type": "alert"
                    },
                    "payload": {
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
                        }
                    }
                },
                "data": {
                    "badge": "4",
                    "cat": "chat.message",
                    "cid": "msg:42",
                    "fallback_body": "New message",
                    "item": "m7",
                    "kind": "alert",
                    "nid": "5d41402abc4b2a76b9719d911017c592",
                    "thread": "conversation:42",
                    "v": "1"
                },
                "token": "fcm-token-d-fcm"
            }
        }
        """#

    static let alertCombinedBody = #"""
        {
            "message": {
                "android": {
                    "collapse_key": "msg:42",
                    "notification": {
                        "channel_id": "messages",
                        "default_sound": true,
                        "notification_count": 4,
                        "tag": "msg:42"
                    },
                    "priority": "high",
                    "ttl": "86400s"
                },
                "apns": {
                    "headers": {
                        "apns-collapse-id": "msg:42",
                        "apns-expiration": "1780401600",
                        "apns-priority": "10",
                        "apns-push-type": "alert"
                    },
                    "payload": {
                        "aps": {
                            "badge": 4,
                            "category": "MESSAGE",
                            "interruption-level": "active",
                            "mutable-content": 1,
                            "sound": "default",
                            "thread-id": "conversation:42"
                        }
                    }
                },
                "data": {
                    "badge": "4",
                    "cat": "chat.message",
                    "cid": "msg:42",
                    "item": "m7",
                    "kind": "alert",
                    "nid": "5d41402abc4b2a76b9719d911017c592",
                    "thread": "conversation:42",
                    "v": "1"
                },
                "notification": {
                    "body": "Lunch at 1? \"Café\" <3",
                    "title": "Asha"
                },
                "token": "fcm-token-d-fcm"
            }
        }
        """#
}
