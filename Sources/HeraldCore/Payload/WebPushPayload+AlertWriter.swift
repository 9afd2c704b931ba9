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
        writer.key("cat")
        writer.string(content.categoryId)
        if let collapseId = content.collapseId {
            writer.key("cid")
            writer.string(collapseId)
        }
        if let count = content.count {
            writer.key("count")
            writer.int(count)
        }
        if let cursor = content.cursor, content.mode != .system {
            writer.key("cursor")
            writer.string(cursor)
        }
        if let itemId = content.itemId {
            writer.key("item")
            writer.string(itemId)
        }
        writer.key("kind")
        writer.string(content.purpose.rawValue)
        writer.key("nid")
        writer.string(content.notificationId)
        writer.key("silent")
        writer.bool(content.silenced || content.interruptionLevel == .passive)
        if let tag = content.collapseId {
            writer.key("tag")
            writer.string(tag)
        }
        if let threadId = content.threadId {
            writer.key("thread")
            writer.string(threadId)
        }
        if let title {
            writer.key("title")
            writer.string(title)
        }
        writer.key("v")
        writer.int(1)
        writer.closeObject()
        return writer.bytes
    }
}
