import Foundation
import HeraldCore

/// The rules of the push platforms, checked on a finished delivery; each returns the broken rules.
enum PayloadRules {
    static let apnsPushTypes: Set<String> = ["alert", "background"]
    static let interruptionLevels: Set<String> = ["passive", "active", "time-sensitive", "critical"]
    static let urgencies: Set<String> = ["very-low", "low", "normal", "high"]

    static func violations(of delivery: Delivery, content: PushContent) -> [String] {
        var broken: [String] = []
        func rule(_ holds: Bool, _ name: String) { if !holds { broken.append(name) } }
        switch delivery.platform {
        case .apns:
            rule(delivery.body.count <= 4_096, "apns body <= 4096")
            let root = Fixture.parse(delivery.body)
            rule(root != nil, "apns body is a JSON object")
            guard let root, let aps = root["aps"] as? [String: Any] else { return broken + ["aps present"] }
            checkAPNs(
                headers: delivery.headers, aps: aps, content: content, hasImage: root["img"] != nil, rule: rule)
            rule(Set(aps.keys).isSubset(of: apsKeys), "only aps keys inside aps")
            rule(delivery.headers["apns-topic"] == "com.example.chat", "apns-topic is the bundle id")
            rule(isUUID(delivery.headers["apns-id"]), "apns-id is a lowercase UUID")
        case .fcm:
            rule(delivery.body.count <= 4_096, "fcm body <= 4096")
            guard let message = Fixture.parse(delivery.body)?["message"] as? [String: Any] else {
                return broken + ["fcm message object"]
            }
            rule(message["token"] is String && message["topic"] == nil, "exactly one target")
            let data = message["data"] as? [String: Any] ?? [:]
            rule(data.values.allSatisfy { $0 is String }, "fcm data values are strings")
            rule(!data.keys.contains(where: FCMPayload.isReservedDataKey), "no reserved data keys")
            let android = message["android"] as? [String: Any] ?? [:]
            let priority = android["priority"] as? String
            rule(priority == "high" || priority == "normal", "android priority set explicitly")
            rule(priority == "normal" || content.isVisible, "high only for visible notifications")
            if let ttl = android["ttl"] as? String, ttl.hasSuffix("s"), let seconds = Int(ttl.dropLast()) {
                rule((0...2_419_200).contains(seconds), "ttl within 28 days")
            } else {
                rule(false, "ttl is \"<n>s\"")
            }
            if content.isVisible, content.mode != .app {
                let notification = android["notification"] as? [String: Any]
                rule(notification?["tag"] as? String == content.collapseId, "android tag set for withdrawal")
            }
            let apns = message["apns"] as? [String: Any] ?? [:]
            let headers = apns["headers"] as? [String: String] ?? [:]
            let aps = (apns["payload"] as? [String: Any])?["aps"] as? [String: Any] ?? [:]
            let image = (apns["fcm_options"] as? [String: Any])?["image"] ?? (message["data"] as? [String: Any])?["img"]
            checkAPNs(headers: headers, aps: aps, content: content, hasImage: image != nil, rule: rule)
        case .webpush:
            rule(delivery.body.count <= 3_993, "web push plaintext <= 3993")
            rule(Fixture.parse(delivery.body) != nil, "web push body is JSON")
            rule(Int(delivery.headers["TTL"] ?? "") != nil, "TTL always sent")
            rule(urgencies.contains(delivery.headers["Urgency"] ?? ""), "Urgency is one of four")
            if let topic = delivery.headers["Topic"] {
                rule(topic.utf8.count <= 32 && topic.utf8.allSatisfy(CollapseIdentifier.isURLSafeBase64), "Topic")
            }
        case .wns:
            rule(delivery.body.count <= 5_000, "wns body <= 5000")
            let type = delivery.headers["X-WNS-Type"]
            rule(["wns/toast", "wns/badge", "wns/raw"].contains(type ?? ""), "X-WNS-Type")
            rule(
                (type == "wns/raw") == (delivery.headers["Content-Type"] == "application/octet-stream"),
                "content type matches the WNS type")
            for name in ["X-WNS-Tag", "X-WNS-Group"] {
                if let tag = delivery.headers[name] {
                    rule(tag.count <= 16 && tag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, name)
                }
            }
        }
        rule(delivery.kind != .background && delivery.kind != .withdraw || delivery.priority == 5, "background at 5")
        return broken + mediaViolations(of: delivery, content: content)
            + ciphertextViolations(of: delivery, content: content)
            + declarativeViolations(of: delivery, content: content)
    }

    static let apsKeys: Set<String> = [
        "alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content",
        "interruption-level", "relevance-score",
    ]

    private static func checkAPNs(
        headers: [String: String], aps: [String: Any], content: PushContent, hasImage: Bool,
        rule: (Bool, String) -> Void
    ) {
        let pushType = headers["apns-push-type"]
        rule(apnsPushTypes.contains(pushType ?? ""), "apns-push-type set")
        rule(["10", "5"].contains(headers["apns-priority"] ?? ""), "apns-priority is 10 or 5")
        if pushType == "background" {
            rule(headers["apns-priority"] == "5", "background pushes at priority 5")
            rule(aps.keys.sorted() == ["content-available"], "background aps holds only content-available")
        }
        if let expiration = headers["apns-expiration"] {
            rule((Int(expiration) ?? 0) > 0, "apns-expiration is positive UNIX seconds")
        }
        if let collapseId = headers["apns-collapse-id"] {
            rule(collapseId.utf8.count <= 64, "apns-collapse-id <= 64 bytes")
        }
        if let level = aps["interruption-level"] as? String {
            rule(interruptionLevels.contains(level), "interruption-level value")
            rule(!content.silenced || level == "passive", "silenced is passive")
        }
        rule(!content.silenced || aps["sound"] == nil, "silenced has no sound")
        if let badge = aps["badge"] as? Int { rule(badge >= 0, "badge is absolute, not negative") }
        // The extension runs when the app builds the notification or has an image to download.
        rule(
            (aps["mutable-content"] != nil) == (content.isVisible && (content.mode != .system || hasImage)),
            "mutable-content")
    }

    private static func isUUID(_ text: String?) -> Bool {
        guard let text else { return false }
        let groups = text.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
        return groups == [8, 4, 4, 4, 12] && text.allSatisfy { $0 == "-" || $0.isHexDigit && !$0.isUppercase }
    }
}

/// Random push content for property loops.
enum RandomContent {
    static func make(using generator: inout SeededGenerator) -> PushContent {
        let purpose = PushContent.Purpose.allCases.randomElement(using: &generator)!
        let long = Int.random(in: 0..<8, using: &generator) == 0
        let title =
            Bool.random(using: &generator)
            ? RandomText.string(length: Int.random(in: 0...(long ? 1_500 : 40), using: &generator), using: &generator)
            : nil
        let body = RandomText.string(
            length: Int.random(in: 0...(long ? 2_500 : 200), using: &generator), using: &generator)
        let ids = (0..<Int.random(in: 0...(long ? 200 : 5), using: &generator)).map { index in
            "msg:" + RandomText.string(length: Int.random(in: 1...40, using: &generator), using: &generator)
                + "\(index)"
        }
        let collapseKey = RandomText.string(
            length: Int.random(in: 1...(long ? 100 : 10), using: &generator), using: &generator)
        var content = PushContent(
            purpose: purpose, mode: Category.DeliveryMode.allCases.randomElement(using: &generator)!,
            notificationId: String(SHA256.hex(collapseKey).prefix(32)), eventId: "e1", categoryId: "chat.message",
            title: title, body: body,
            badge: Bool.random(using: &generator) ? Int.random(in: 0...10_000, using: &generator) : nil,
            silenced: Bool.random(using: &generator),
            interruptionLevel: Category.InterruptionLevel.allCases.randomElement(using: &generator)!,
            priority: Category.Priority.allCases.randomElement(using: &generator)!,
            threadId: Bool.random(using: &generator) ? String(repeating: "t", count: 128) : "42",
            apnsCategory: "MESSAGE", androidChannelId: "messages",
            collapseId: CollapseIdentifier.apns(for: collapseKey),
            itemId: String(repeating: "i", count: Int.random(in: 1...128, using: &generator)),
            count: purpose == .digest ? Int.random(in: 1...500, using: &generator) : nil, withdrawIds: ids,
            expiresAt: Fixture.now + Double.random(in: 1...3_000_000, using: &generator), availableAt: Fixture.now)
        if Bool.random(using: &generator) { content.imageURL = address("https://img.example/", &generator) }
        if Bool.random(using: &generator) {
            content.link = address(Bool.random(using: &generator) ? "https://chat.example/t/" : "chat://t/", &generator)
        }
        if Bool.random(using: &generator) { content.relevanceScore = Double.random(in: 0...1, using: &generator) }
        if Bool.random(using: &generator) { content.ciphertext = ciphertext(&generator, long: long) }
        content.fetch = content.ciphertext == nil && Int.random(in: 0..<8, using: &generator) == 0
        return content
    }

    /// Base64 text of up to `Ciphertext.maxBytes` (mostly within a push's room, a long one rarely), in either
    /// alphabet, padded or not.
    static func ciphertext(_ generator: inout SeededGenerator, long: Bool) -> String {
        let alphabet = Array(
            Bool.random(using: &generator)
                ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let groups = Int.random(in: 1...(long ? Ciphertext.maxBytes / 4 : 700), using: &generator)
        var text = String((0..<(groups * 4)).map { _ in alphabet.randomElement(using: &generator)! })
        if Bool.random(using: &generator) { text.replaceSubrange(text.index(before: text.endIndex)..., with: "=") }
        return text
    }

    /// A valid address of up to 1 KB starting with `prefix`: printable ASCII, some of it escaped in JSON and XML.
    static func address(_ prefix: String, _ generator: inout SeededGenerator) -> String {
        let characters = Array("abcXYZ019-._~%&=?/;+!$'()*,@")
        let length = Int.random(in: 1...(NotificationMedia.maxBytes - prefix.utf8.count), using: &generator)
        return prefix + String((0..<length).map { _ in characters.randomElement(using: &generator)! })
    }
}
