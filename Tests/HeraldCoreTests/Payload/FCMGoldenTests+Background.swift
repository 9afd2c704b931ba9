import Foundation

@testable import HeraldCore

/// The expected FCM withdrawals, badge updates and silenced single alerts.
extension FCMGoldenTests {
    /// The same bytes in every delivery mode.
    static let withdrawBody = #"""
        {
            "message": {
                "android": {
                    "priority": "normal",
                    "ttl": "86400s"
                },
                "apns": {
                    "headers": {
                        "apns-expiration": "1780401600",
                        "apns-priority": "5",
                        "apns-push-type": "background"
                    },
                    "payload": {
                        "aps": {
                            "content-available": 1
                        }
                    }
                },
                "data": {
                    "badge": "2",
                    "cat": "herald.read",
                    "kind": "withdraw",
                    "nid": "c4ca4238a0b923820dcc509a6f75849b",
                    "v": "1",
                    "withdraw": "[\"msg:42\",\"a87ff679a2f3e71d9181a67b7542122c\"]"
                },
                "token": "fcm-token-d-fcm"
            }
        }
        """#

    /// The same bytes in every delivery mode.
    static let badgeBody = #"""
        {
            "message": {
                "android": {
                    "priority": "normal",
                    "ttl": "86400s"
                },
                "apns": {
                    "headers": {
                        "apns-expiration": "1780401600",
                        "apns-priority": "5",
                        "apns-push-type": "alert"
                    },
                    "payload": {
                        "aps": {
                            "badge": 2
                        }
                    }
                },
                "data": {
                    "badge": "2",
                    "cat": "herald.read",
                    "kind": "badge",
                    "nid": "c81e728d9d4c2f636f067f89cc14862c",
                    "v": "1"
                },
                "token": "fcm-token-d-fcm"
            }
        }
        """#

    static let silencedSingleSystemBody = #"""
        {
            "message": {
                "android": {
                    "notification": {
                        "channel_id": "mentions",
                        "notification_count": 5,
                        "tag": "a87ff679a2f3e71d9181a67b7542122c"
                    },
                    "priority": "normal",
                    "ttl": "86400s"
                },
                "apns": {
                    "headers": {
                        "apns-collapse-id": "a87ff679a2f3e71d9181a67b7542122c",
                        "apns-expiration": "1780401600",
                        "apns-priority": "5",
                        "apns-push-type": "alert"
                    },
                    "payload": {
                        "aps": {
                            "badge": 5,
                            "category": "MENTION",
                            "interruption-level": "passive",
                            "thread-id": "conversation:42"
                        }
                    }
                },
                "data": {
                    "badge": "5",
                    "cat": "chat.mention",
                    "cid": "a87ff679a2f3e71d9181a67b7542122c",
                    "item": "m8",
                    "kind": "alert",
                    "nid": "a87ff679a2f3e71d9181a67b7542122c",
                    "thread": "conversation:42",
                    "v": "1"
                },
                "notification": {
                    "body": "Are you around?",
                    "title": "Asha"
                },
                "token": "fcm-token-d-fcm"
            }
        }
        """#

    static let silencedSingleAppBody = #"""
        {
            "message": {
                "android": {
                    "priority": "normal",
                    "ttl": "86400s"
                },
                "apns": {
                    "headers": {
                        "apns-collapse-id": "a87ff679a2f3e71d9181a67b7542122c",
                        "apns-expiration": "1780401600",
                        "apns-priority": "5",
                        "apns-push-type": "alert"
                    },
                    "payload": {
                        "aps": {
                            "alert": {
                                "body": "New mention"
                            },
                            "badge": 5,
                            "category": "MENTION",
                            "interruption-level": "passive",
                            "mutable-content": 1,
                            "thread-id": "conversation:42"
                        }
                    }
                },
                "data": {
                    "badge": "5",
                    "cat": "chat.mention",
                    "cid": "a87ff679a2f3e71d9181a67b7542122c",
                    "fallback_body": "New mention",
                    "item": "m8",
                    "kind": "alert",
                    "nid": "a87ff679a2f3e71d9181a67b7542122c",
                    "thread": "conversation:42",
                    "v": "1"
                },
                "token": "fcm-token-d-fcm"
            }
        }
        """#

    static let silencedSingleCombinedBody = #"""
        {
            "message": {
                "android": {
                    "notification": {
                        "channel_id": "mentions",
                        "notification_count": 5,
                        "tag": "a87ff679a2f3e71d9181a67b7542122c"
                    },
                    "priority": "normal",
                    "ttl": "86400s"
                },
                "apns": {
                    "headers": {
                        "apns-collapse-id": "a87ff679a2f3e71d9181a67b7542122c",
                        "apns-expiration": "1780401600",
                        "apns-priority": "5",
                        "apns-push-type": "alert"
                    },
                    "payload": {
                        "aps": {
                            "badge": 5,
                            "category": "MENTION",
                            "interruption-level": "passive",
                            "mutable-content": 1,
                            "thread-id": "conversation:42"
                        }
                    }
                },
                "data": {
                    "badge": "5",
                    "cat": "chat.mention",
                    "cid": "a87ff679a2f3e71d9181a67b7542122c",
                    "item": "m8",
                    "kind": "alert",
                    "nid": "a87ff679a2f3e71d9181a67b7542122c",
                    "thread": "conversation:42",
                    "v": "1"
                },
                "notification": {
                    "body": "Are you around?",
                    "title": "Asha"
                },
                "token": "fcm-token-d-fcm"
            }
        }
        """#
}
