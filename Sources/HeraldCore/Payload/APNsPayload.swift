import Foundation

/// The APNs request for one device: headers and the JSON body, by Apple's rules.
///
/// Alerts carry `alert`, `badge`, `sound`, `thread-id`, `category`, `interruption-level`, `relevance-score` and,
/// when the app builds the notification or has an image to download, `mutable-content`. The image address and the
/// link ride beside `aps` as `img` and `link`, for the app's notification service extension and its tap handler. Background pushes carry only `content-available`
/// inside `aps`, go at priority 5 with push type `background`, and put everything else beside `aps`.
public enum APNsPayload {
    /// APNs rejects bodies over 4096 bytes (413, not retried).
    public static let maxBodyBytes = 4_096

    /// The headers for `content` sent to the app `bundleId`.
    public static func headers(
        for content: PushContent, bundleId: String, installationId: String
    )
        -> [String: String]
    {
        var headers = contentHeaders(for: content)
        headers["apns-topic"] = bundleId
        headers["apns-id"] = NotificationIdentity.apnsId(
            notificationId: content.notificationId, installationId: installationId, purpose: content.purpose)
        return headers
    }

    /// The headers that follow from the content alone: push type, priority, expiration and collapse id. FCM's
    /// `apns` override block carries exactly these, so Apple devices behind FCM get the same rules.
    public static func contentHeaders(for content: PushContent) -> [String: String] {
        // Room for the device headers `headers(for:bundleId:installationId:)` adds, so the table never grows.
        var headers = [String: String](minimumCapacity: 6)
        headers["apns-push-type"] = pushType(for: content)
        headers["apns-priority"] = String(priority(for: content))
        // Never 0: through gorush a 0 is not sent at all and APNs falls back to storing for 30 days.
        headers["apns-expiration"] = String(max(1, Int(content.expiresAt.timeIntervalSince1970.rounded(.up))))
        if content.isVisible, let collapseId = content.collapseId {
            headers["apns-collapse-id"] = CollapseIdentifier.apns(for: collapseId)
        }
        return headers
    }

    /// `background` for withdrawals (only `content-available` in `aps`); `alert` for alerts, digests and
    /// badge-only pushes, whose `aps` carries an alert or a badge.
    public static func pushType(for content: PushContent) -> String {
        content.purpose == .withdraw ? "background" : "alert"
    }

    /// 10 only for urgent visible alerts; everything else, background always, at 5.
    public static func priority(for content: PushContent) -> Int {
        content.isUrgent ? 10 : 5
    }

    /// The body, fitted to 4096 bytes; `nil` only if the identifiers alone exceed it.
    public static func body(for content: PushContent) -> [UInt8]? { fittedBody(for: content)?.bytes }

    /// The body, fitted to 4096 bytes, and whether its image was left out to fit.
    static func fittedBody(for content: PushContent) -> PlatformBody.Fitted? {
        PlatformBody.fitted(
            content, limit: maxBodyBytes, document: document(for:title:body:), alertBody: alertBody(for:title:body:))
    }

    /// The JSON document for `content` with the given (possibly shortened) text.
    public static func document(for content: PushContent, title: String?, body: String?) -> JSONValue {
        var root = content.heraldKeys
        var aps: [String: JSONValue] = [:]
        switch content.purpose {
        case .alert, .digest:
            var alert: [String: JSONValue] = [:]
            if let title { alert["title"] = .string(title) }
            if let body { alert["body"] = .string(body) }
            if !alert.isEmpty { aps["alert"] = .object(alert) }
            if let badge = content.badge { aps["badge"] = .int(max(0, badge)) }
            if let sound = sound(for: content) { aps["sound"] = sound }
            if let threadId = content.threadId { aps["thread-id"] = .string(threadId) }
            if let category = content.apnsCategory { aps["category"] = .string(category) }
            if content.isMutable { aps["mutable-content"] = .int(1) }
            if let score = content.relevanceScore { aps["relevance-score"] = .double(score) }
            aps["interruption-level"] = .string(content.effectiveInterruptionLevel.rawValue)
            if let image = content.visibleImage { root["img"] = .string(image) }
            if let link = content.visibleLink { root["link"] = .string(link) }
        case .badge:
            aps["badge"] = .int(max(0, content.badge ?? 0))
        case .withdraw:
            aps["content-available"] = .int(1)
            root["withdraw"] = .array(content.withdrawIds.map(JSONValue.string))
            if let badge = content.badge { root["badge"] = .int(max(0, badge)) }
        }
        root["aps"] = .object(aps)
        return .object(root)
    }

    private static func sound(for content: PushContent) -> JSONValue? {
        if content.isQuiet { return nil }
        if content.interruptionLevel == .critical {
            return .object(["critical": .int(1), "name": .string("default"), "volume": .double(1.0)])
        }
        return .string("default")
    }
}
