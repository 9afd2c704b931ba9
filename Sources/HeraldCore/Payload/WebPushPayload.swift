import Foundation

/// The Web Push request for one subscription: RFC 8030 headers and the JSON plaintext the delivery worker
/// encrypts (RFC 8291).
///
/// Browsers demand a visible notification for every push, withdrawals included, so every body names the `tag` the
/// service worker shows, replaces or closes. `Topic` replaces an undelivered push with the same topic.
///
/// An alert's `image` and `data` (with the link in `data.url`) have the names of the Notifications API's options,
/// so the worker can pass them to `showNotification` as they are and open `data.url` on a click. An alert with an
/// `https://` link is also a declarative push message (`web_push`, `notification` with `navigate`, `app_badge`),
/// which a browser that knows the format shows without the worker.
public enum WebPushPayload {
    /// The most plaintext one aes128gcm record carries in a 4096-byte push message.
    public static let maxBodyBytes = 3_993

    /// The headers: `TTL` always, `Urgency` from the content, `Topic` when the push replaces by collapse id.
    public static func headers(for content: PushContent) -> [String: String] {
        // Room for the topic too, so the table is sized once.
        var headers = [String: String](minimumCapacity: 4)
        headers["TTL"] = String(content.ttlSeconds)
        headers["Urgency"] = urgency(for: content)
        headers["Content-Type"] = "application/json"
        if let topicSource = content.isVisible ? content.collapseId : content.withdrawIds.last {
            headers["Topic"] = CollapseIdentifier.webPushTopic(for: topicSource)
        }
        return headers
    }

    /// `high` for urgent alerts, `low` for silenced alerts and badge updates, `normal` otherwise.
    public static func urgency(for content: PushContent) -> String {
        if content.isUrgent { return "high" }
        if content.purpose == .badge || (content.isVisible && content.silenced) { return "low" }
        return "normal"
    }

    /// Priority on the queue's APNs-like scale.
    public static func priority(for content: PushContent) -> Int { content.isUrgent ? 10 : 5 }

    /// The plaintext body, fitted to 3993 bytes; `nil` only if the identifiers alone exceed it.
    public static func body(for content: PushContent) -> [UInt8]? { fittedBody(for: content)?.bytes }

    /// The plaintext body, fitted to 3993 bytes, and whether its image was left out to fit.
    static func fittedBody(for content: PushContent) -> PlatformBody.Fitted? {
        PlatformBody.fitted(
            content, limit: maxBodyBytes, document: document(for:title:body:), alertBody: alertBody(for:title:body:))
    }

    /// The JSON document the service worker reads and, for an alert with an `https://` link, the declarative
    /// members a browser shows without it (`WebPushPayload+Declarative`).
    public static func document(for content: PushContent, title: String?, body: String?) -> JSONValue {
        var root = serviceWorkerMembers(for: content, title: title, body: body)
        root.merge(declarativeMembers(for: content, title: title, body: body)) { own, _ in own }
        return .object(root)
    }

    /// The members the service worker reads alone (also the body of an encrypted WNS alert, which no browser
    /// shows).
    static func serviceWorkerMembers(for content: PushContent, title: String?, body: String?) -> [String: JSONValue] {
        var root = content.heraldKeys
        if let badge = content.badge { root["badge"] = .int(max(0, badge)) }
        switch content.purpose {
        case .alert, .digest:
            if let title { root["title"] = .string(title) }
            if let body { root["body"] = .string(body) }
            if let tag = content.collapseId { root["tag"] = .string(tag) }
            root["silent"] = .bool(content.isQuiet)
            if let image = content.visibleImage { root["image"] = .string(image) }
            if let link = content.visibleLink { root["data"] = .object(["url": .string(link)]) }
            root["app_builds"] = .bool(content.mode != .system)
        case .withdraw:
            root["withdraw"] = .array(content.withdrawIds.map(JSONValue.string))
        case .badge:
            break
        }
        return root
    }
}
