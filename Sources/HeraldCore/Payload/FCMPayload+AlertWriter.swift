/// The FCM request of alerts and digests written directly, without an intermediate document.
extension FCMPayload {
    /// The alert or digest request with the given (possibly shortened) text: the same bytes as
    /// `document(for:token:title:body:).serialized()`.
    static func alertBody(for content: PushContent, token: String, title: String?, body: String?) -> [UInt8] {
        let appBuilds = content.mode == .app
        var writer = JSONWriter(capacity: 1_024)
        writer.openObject()
        writer.key("message")
        writer.openObject()

        writer.key("android")
        writer.openObject()
        if let key = collapseKey(for: content) {
            writer.key("collapse_key")
            writer.string(key)
        }
        if !appBuilds { writeAndroidNotification(content, into: &writer) }
        writer.key("priority")
        writer.word(content.isUrgent ? "high" : "normal")
        writer.key("ttl")
        writer.string("\(min(content.ttlSeconds, maxTTLSeconds))s")
        writer.closeObject()

        writer.key("apns")
        writer.openObject()
        if let image = appleImage(for: content) {
            writer.key("fcm_options")
            writer.openObject()
            writer.key("image")
            writer.string(image)
            writer.closeObject()
        }
        writer.key("headers")
        writeAPNsHeaders(content, into: &writer)
        writer.key("payload")
        writer.openObject()
        writer.key("aps")
        APNsPayload.writeAps(content, title: title, body: body, alert: appBuilds, into: &writer)
        writer.closeObject()
        writer.closeObject()

        writer.key("data")
        writeData(content, fallbackTitle: appBuilds ? title : nil, fallbackBody: appBuilds ? body : nil, into: &writer)

        if !appBuilds {
            writer.key("notification")
            writer.alertText(title: title, body: body, image: content.visibleImage)
        }
        writer.key("token")
        writer.string(token)
        if let link = content.visibleWebLink {
            writer.key("webpush")
            writer.openObject()
            writer.key("fcm_options")
            writer.openObject()
            writer.key("link")
            writer.string(link)
            writer.closeObject()
            writer.closeObject()
        }
        writer.closeObject()
        writer.closeObject()
        return writer.bytes
    }

    /// `android.notification`, keys in byte order.
    private static func writeAndroidNotification(_ content: PushContent, into writer: inout JSONWriter) {
        writer.key("notification")
        writer.openObject()
        if let channel = content.androidChannelId {
            writer.key("channel_id")
            writer.string(channel)
        }
        if !content.isQuiet {
            writer.key("default_sound")
            writer.bool(true)
        }
        if let badge = content.badge {
            writer.key("notification_count")
            writer.int(max(0, badge))
        }
        if let tag = content.collapseId {
            writer.key("tag")
            writer.string(tag)
        }
        writer.closeObject()
    }

    /// `apns.headers`: the APNs content headers of a visible push, keys in byte order.
    private static func writeAPNsHeaders(_ content: PushContent, into writer: inout JSONWriter) {
        writer.openObject()
        if let collapseId = content.collapseId {
            writer.key("apns-collapse-id")
            writer.string(CollapseIdentifier.apns(for: collapseId))
        }
        writer.key("apns-expiration")
        writer.intString(max(1, Int(content.expiresAt.timeIntervalSince1970.rounded(.up))))
        writer.key("apns-priority")
        writer.intString(APNsPayload.priority(for: content))
        writer.key("apns-push-type")
        writer.string(APNsPayload.pushType(for: content))
        writer.closeObject()
    }

    /// `data`: Herald's keys as strings, the badge and, in `app` mode, the fallback text; keys in byte order.
    private static func writeData(
        _ content: PushContent, fallbackTitle: String?, fallbackBody: String?, into writer: inout JSONWriter
    ) {
        writer.openObject()
        if let badge = content.badge {
            writer.key("badge")
            writer.intString(max(0, badge))
        }
        writer.heraldKeys(content, quoted: true) { slot, writer in
            switch slot {
            case .afterCursor:
                writer.ciphertext(content)
                if let fallbackBody {
                    writer.key("fallback_body")
                    writer.string(fallbackBody)
                }
                if let fallbackTitle {
                    writer.key("fallback_title")
                    writer.string(fallbackTitle)
                }
                writer.fetchFlag(content, quoted: true)
                if content.mode == .app, let image = content.visibleImage {
                    writer.key("img")
                    writer.string(image)
                }
            case .afterKind, .afterNotificationId, .afterThread:
                // `link` as APNs writes it beside `aps`.
                APNsPayload.writeMedia(content, at: slot, into: &writer)
            }
        }
        writer.closeObject()
    }
}
