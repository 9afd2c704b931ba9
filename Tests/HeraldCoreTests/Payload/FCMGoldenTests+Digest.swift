import Foundation

@testable import HeraldCore

/// The expected FCM digests: the same tag and collapse key as the burst's first alert.
extension FCMGoldenTests {
    static let digestSystemBody = #"""
        {
            "message": {
                "android": {
                    "collapse_key": "msg:42",
                    "notification": {
                        "channel_id": "messages",
                        "default_sound": true,
                        "notification_count": 6,
                        "tag": "msg:42"
                    },
                    "priority": "high",
                    "ttl": "86100s"
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
                            "badge": 6,
                            "category": "MESSAGE",
                            "interruption-level": "active",
                            "sound": "default"
                        }
                    }
                },
                "data": {
                    "badge": "6",
                    "cat": "chat.message",
                    "cid": "msg:42",
                    "count": "3",
                    "item": "m9",
                    "kind": "digest",
                    "nid": "7b8b965ad4bca0e41ab51de7b31363a1",
                    "v": "1"
                },
                "notification": {
                    "body": "From Asha and 2 others",
                    "title": "3 new messages"
                },
                "token": "fcm-token-d-fcm"
            }
        }
        """#

    static let digestAppBody = #"""
        {
            "message": {
                "android": {
                    "collapse_key": "msg:42",
                    "priority": "high",
                    "ttl": "86100s"
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
                                "body": "From Asha and 2 others",
                                "title": "3 new messages"
                            },
                            "badge": 6,
                            "category": "MESSAGE",
                            "interruption-level": "active",
                            "mutable-content": 1,
                            "sound": "default"
                        }
                    }
                },
                "data": {
                    "badge": "6",
                    "cat": "chat.message",
                    "cid": "msg:42",
                    "count": "3",
                    "fallback_body": "From Asha and 2 others",
                    "fallback_title": "3 new messages",
                    "item": "m9",
                    "kind": "digest",
                    "nid": "7b8b965ad4bca0e41ab51de7b31363a1",
                    "v": "1"
                },
                "token": "fcm-token-d-fcm"
            }
        }
        """#

    static let digestCombinedBody = #"""
        {
            "message": {
                "android": {
                    "collapse_key": "msg:42",
                    "notification": {
                        "channel_id": "messages",
                        "default_sound": true,
                        "notification_count": 6,
                        "tag": "msg:42"
                    },
                    "priority": "high",
                    "ttl": "86100s"
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
                            "badge": 6,
                            "category": "MESSAGE",
                            "interruption-level": "active",
                            "mutable-content": 1,
                            "sound": "default"
                        }
                    }
                },
                "data": {
                    "badge": "6",
                    "cat": "chat.message",
                    "cid": "msg:42",
                    "count": "3",
                    "item": "m9",
                    "kind": "digest",
                    "nid": "7b8b965ad4bca0e41ab51de7b31363a1",
                    "v": "1"
                },
                "notification": {
                    "body": "From Asha and 2 others",
                    "title": "3 new messages"
                },
                "token": "fcm-token-d-fcm"
            }
        }
        """#
}
