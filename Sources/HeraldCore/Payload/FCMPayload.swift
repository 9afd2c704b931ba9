import Foundation

/// The FCM HTTP v1 `messages:send` request body for one device token.
///
/// Visible notifications in `system`/`combined` mode are notification messages with an explicit
/// `android.notification.tag` (so they can be replaced and withdrawn); `app` mode and withdrawals are data
/// messages the app handles itself. `data` holds strings only. `android.priority` is `high` only for urgent
/// visible alerts. The `apns` block obeys the APNs rules for Apple devices reached through FCM.
///
/// An image goes in `notification.image` (Android and browsers) and `apns.fcm_options.image` (Apple devices, with
/// `mutable-content`); in `app` mode, where there is no `notification`, in `data.img` for the app. The link goes in
/// `data.link` and, when it is an `https://` address, in `webpush.fcm_options.link`, which browsers open on a tap.
///
/// `android.collapse_key` is set only when the push belongs to a burst (see `PushContent.collapsesBurst`). FCM
/// stores at most 4 collapse keys per device and, beyond that, keeps an arbitrary 4, so a key on every
/// notification or thread would make FCM discard other conversations' pending pushes for an offline device.
/// Within a burst the digest replaces the first alert anyway, so letting FCM keep only the newer of the two
/// loses nothing; every other push stays non-collapsible (FCM stores up to 100 of those). Only more than four
/// bursts pending at once for one offline device can still cost one of them its push (the feed keeps the
/// notification). Replacement in the drawer works through `android.notification.tag`, which every visible
/// notification carries.
public enum FCMPayload {
    /// FCM rejects messages over 4096 bytes.
    public static let maxBodyBytes = 4_096
    /// The longest TTL FCM accepts (28 days).
    public static let maxTTLSeconds = 2_419_200
    /// Data keys FCM reserves.
    public static func isReservedDataKey(_ key: String) -> Bool {
        key == "from" || key == "gcm" || key.hasPrefix("google")
    }

    /// The request body, fitted to 4096 bytes; `nil` only if the identifiers alone exceed it.
    public static func body(for content: PushContent, token: String) -> [UInt8]? {
        fittedBody(for: content, token: token)?.bytes
    }

    /// The request body, fitted to 4096 bytes, and whether its image was left out to fit.
    static func fittedBody(for content: PushContent, token: String) -> PlatformBody.Fitted? {
        PlatformBody.fitted(
            content, limit: maxBodyBytes, withdrawCost: dataArrayElementCost,
            document: { document(for: $0, token: token, title: $1, body: $2, sync: $3) },
            alertBody: { alertBody(for: $0, token: token, title: $1, body: $2) })
    }

    /// The `{"message": …}` document with the given (possibly shortened) text.
    public static func document(
        for content: PushContent, token: String, title: String?, body: String?, sync: Bool = false
    ) -> JSONValue {
        var data = content.heraldKeys.compactMapValues { $0.scalarText }
        if let badge = content.badge { data["badge"] = String(max(0, badge)) }
        if let link = content.visibleLink { data["link"] = link }
        var message: [String: JSONValue] = ["token": .string(token)]
        var android: [String: JSONValue] = [
            "priority": .string(content.isUrgent ? "high" : "normal"),
            "ttl": .string("\(min(content.ttlSeconds, maxTTLSeconds))s"),
        ]
        if let key = collapseKey(for: content) { android["collapse_key"] = .string(key) }
        let aps = apsBlock(for: content, title: title, body: body)
        switch content.purpose {
        case .alert, .digest:
            if content.mode == .app {
                // The app builds the notification from the data; the fallback text rides along.
                if let title { data["fallback_title"] = title }
                if let body { data["fallback_body"] = body }
                if let image = content.visibleImage { data["img"] = image }
            } else {
                var notification = notificationBlock(title: title, body: body)
                if let image = content.visibleImage { notification["image"] = .string(image) }
                message["notification"] = .object(notification)
                android["notification"] = .object(androidNotification(for: content))
            }
        case .withdraw:
            let ids = JSONValue.array(content.withdrawIds.map(JSONValue.string)).serialized()
            data["withdraw"] = String(decoding: ids, as: UTF8.self)
            if sync { data["sync"] = "true" }
        case .badge:
            break
        }
        message["data"] = .object(data.mapValues(JSONValue.string))
        message["android"] = .object(android)
        var apns: [String: JSONValue] = [
            "headers": .object(APNsPayload.contentHeaders(for: content).mapValues(JSONValue.string)),
            "payload": .object(["aps": .object(aps)]),
        ]
        if let image = appleImage(for: content) { apns["fcm_options"] = .object(["image": .string(image)]) }
        message["apns"] = .object(apns)
        if let link = content.visibleWebLink {
            message["webpush"] = .object(["fcm_options": .object(["link": .string(link)])])
        }
        return .object(["message": .object(message)])
    }

    /// The `android.collapse_key`: only for pushes of a burst, derived from the burst's collapse id.
    public static func collapseKey(for content: PushContent) -> String? {
        guard content.collapsesBurst, let collapseId = content.collapseId else { return nil }
        return CollapseIdentifier.fcmCollapseKey(for: collapseId)
    }

    /// The image Apple devices download through FCM's extension helper: with a `notification` only (`app` mode
    /// carries it in `data.img`).
    static func appleImage(for content: PushContent) -> String? {
        content.mode == .app ? nil : content.visibleImage
    }

    /// Cost of one id inside the JSON array that is itself carried as a data string: escaped twice, plus a comma.
    static func dataArrayElementCost(_ id: String) -> Int {
        let inner = String(decoding: JSONValue.string(id).serialized(), as: UTF8.self)
        return JSONValue.encodedLength(of: inner) - 2 + 1
    }

    private static func notificationBlock(title: String?, body: String?) -> [String: JSONValue] {
        var notification: [String: JSONValue] = [:]
        if let title { notification["title"] = .string(title) }
        if let body { notification["body"] = .string(body) }
        return notification
    }

    private static func androidNotification(for content: PushContent) -> [String: JSONValue] {
        var notification: [String: JSONValue] = [:]
        // An explicit tag is what lets a later digest replace this notification and a withdrawal cancel it.
        if let tag = content.collapseId { notification["tag"] = .string(tag) }
        if let channel = content.androidChannelId { notification["channel_id"] = .string(channel) }
        if let badge = content.badge { notification["notification_count"] = .int(max(0, badge)) }
        // Passive alerts stay quiet on every platform, as APNs, Web Push and WNS already do.
        if !content.isQuiet {
            notification["default_sound"] = .bool(true)
        }
        return notification
    }

    /// The `aps` dictionary for Apple devices behind FCM; in `system`/`combined` the alert text comes from the
    /// top-level `notification`, in `app` mode the fallback text goes here.
    private static func apsBlock(
        for content: PushContent, title: String?, body: String?
    ) -> [String:
        JSONValue]
    {
        guard case .object(let root) = APNsPayload.document(for: content, title: title, body: body),
            case .object(var aps) = root["aps"]
        else { return [:] }
        if content.isVisible, content.mode != .app { aps["alert"] = nil }
        return aps
    }
}
