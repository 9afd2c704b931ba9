/// The Web Push plaintext of alerts and digests written directly, without an intermediate document.
extension WebPushPayload {
    /// The alert or digest body with the given (possibly shortened) text: the same bytes as
    /// `document(for:title:body:).serialized()`, whose keys interleave Herald's own with the service worker's.
    static func alertBody(for content: PushContent, title: String?, body: String?) -> [UInt8] {
        let navigate = declarativeNavigate(for: content, title: title)
        var writer = JSONWriter()
        writer.openObject()
        writer.declarativeAppBadge(content, navigate: navigate)
        writer.key("app_builds")
        writer.bool(content.mode != .system)
        if let badge = content.badge {
            writer.key("badge")
            writer.int(max(0, badge))
        }
        if let body {
            writer.key("body")
            writer.string(body)
        }
        writer.heraldKeys(content, quoted: false) { slot, writer in
            switch slot {
            case .afterCursor:
                if let link = content.visibleLink {
                    writer.key("data")
                    writer.openObject()
                    writer.key("url")
                    writer.string(link)
                    writer.closeObject()
                }
                writer.ciphertext(content)
                writer.fetchFlag(content, quoted: false)
                if let image = content.visibleImage {
                    writer.key("image")
                    writer.string(image)
                }
            case .afterKind:
                writer.declarativeMutable(content, navigate: navigate)
            case .afterNotificationId:
                writer.declarativeNotification(content, navigate: navigate, title: title, body: body)
                writer.key("silent")
                writer.bool(content.isQuiet)
                if let tag = content.collapseId {
                    writer.key("tag")
                    writer.string(tag)
                }
            case .afterThread:
                if let title {
                    writer.key("title")
                    writer.string(title)
                }
            }
        }
        writer.declarativeMarker(navigate: navigate)
        writer.closeObject()
        return writer.bytes
    }
}
