import Foundation

@testable import HeraldCore

/// The rules for end-to-end encrypted content, per platform: the ciphertext goes whole or not at all (then the push
/// says `fetch`), only where the app runs first, beside the text and never inside Apple's `aps` or a notification
/// the platform draws without the app.
extension PayloadRules {
    /// What a delivered push carries of the ciphertext: `enc` and `fetch` as read back from its platform's shape.
    struct CarriedCiphertext {
        var enc: String?
        var fetch = false
    }

    static func ciphertextViolations(of delivery: Delivery, content: PushContent) -> [String] {
        var broken: [String] = []
        func rule(_ holds: Bool, _ name: String) { if !holds { broken.append(name) } }
        guard let carried = carriedCiphertext(by: delivery, rule: rule) else { return broken }
        let expected = content.isVisible && content.mode != .system ? content.ciphertext : nil
        rule(carried.enc == nil || carried.enc == expected, "enc is the device's ciphertext, whole")
        rule(!(carried.enc != nil && carried.fetch), "never both enc and fetch")
        if let expected {
            rule(carried.enc == expected || carried.fetch, "a ciphertext that does not fit says fetch")
        } else {
            rule(carried.enc == nil, "no ciphertext where the app does not run first")
            let fetchAsked = content.isVisible && content.mode != .system && content.fetch
            rule(carried.fetch == fetchAsked, "fetch only for a ciphertext left out")
        }
        if carried.enc != nil, let text = carriedText(by: delivery) {
            rule(text.title == content.title && text.body == content.body, "the text beside a ciphertext is whole")
        }
        if delivery.platform == .wns, content.isVisible {
            let raw = delivery.headers["X-WNS-Type"] == "wns/raw"
            rule(raw == (carried.enc != nil || carried.fetch), "wns alerts with a ciphertext go raw")
        }
        return broken
    }

    /// The ciphertext members of a delivery: APNs, Web Push and a raw WNS alert at the top level, beside `aps` for
    /// APNs; FCM in `data`, as strings.
    private static func carriedCiphertext(
        by delivery: Delivery, rule: (Bool, String) -> Void
    ) -> CarriedCiphertext? {
        switch delivery.platform {
        case .apns:
            guard let root = Fixture.parse(delivery.body) else { return nil }
            let aps = root["aps"] as? [String: Any] ?? [:]
            rule(aps["enc"] == nil && aps["fetch"] == nil, "no ciphertext inside aps")
            return CarriedCiphertext(enc: root["enc"] as? String, fetch: root["fetch"] as? Bool == true)
        case .fcm:
            guard let message = Fixture.parse(delivery.body)?["message"] as? [String: Any] else { return nil }
            let data = message["data"] as? [String: Any] ?? [:]
            if let fetch = data["fetch"] { rule(fetch as? String == "true", "fcm fetch is the string true") }
            let notification = message["notification"] as? [String: Any] ?? [:]
            rule(notification["enc"] == nil, "no ciphertext in the notification FCM draws")
            return CarriedCiphertext(enc: data["enc"] as? String, fetch: data["fetch"] as? String == "true")
        case .webpush:
            guard let root = Fixture.parse(delivery.body) else { return nil }
            return CarriedCiphertext(enc: root["enc"] as? String, fetch: root["fetch"] as? Bool == true)
        case .wns:
            guard delivery.headers["X-WNS-Type"] == "wns/raw", let root = Fixture.parse(delivery.body) else {
                rule(!delivery.bodyText.contains("\"enc\""), "no ciphertext in a toast")
                return CarriedCiphertext()
            }
            return CarriedCiphertext(enc: root["enc"] as? String, fetch: root["fetch"] as? Bool == true)
        }
    }

    /// The text a visible push shows, as the app reads it beside a ciphertext.
    private static func carriedText(by delivery: Delivery) -> (title: String?, body: String?)? {
        switch delivery.platform {
        case .apns:
            let alert = (Fixture.parse(delivery.body)?["aps"] as? [String: Any])?["alert"] as? [String: Any]
            return (alert?["title"] as? String, alert?["body"] as? String)
        case .fcm:
            guard let message = Fixture.parse(delivery.body)?["message"] as? [String: Any] else { return nil }
            if let notification = message["notification"] as? [String: Any] {
                return (notification["title"] as? String, notification["body"] as? String)
            }
            let data = message["data"] as? [String: Any] ?? [:]
            return (data["fallback_title"] as? String, data["fallback_body"] as? String)
        case .webpush, .wns:
            guard let root = Fixture.parse(delivery.body) else { return nil }
            return (root["title"] as? String, root["body"] as? String)
        }
    }
}
