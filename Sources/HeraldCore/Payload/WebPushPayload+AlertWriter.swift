/// The Web Push plaintext of alerts and digests written directly, without an intermediate document.
extension WebPushPayload {
    /// The alert or digest body with the given (possibly shortened) text: the same bytes as
    /// `document(for:title:body:).serialized()`, whose keys interleave Herald's own with the service worker's.
    static func alertBody(for content: PushContent, title: String?, body: String?) -> [UInt8] {
        var writer = PayloadWriter()
        writer.openObject()
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
                break
            case .afterNotificationId:
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
        writer.closeObject()
        return writer.bytes
    }
}
