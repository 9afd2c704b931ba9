/// The APNs body of alerts and digests written directly, without an intermediate document: these are the pushes
/// built for every device of every event, so they skip the dictionaries and the key sorting.
extension APNsPayload {
    /// The alert or digest body with the given (possibly shortened) text: the same bytes as
    /// `document(for:title:body:).serialized()`.
    static func alertBody(for content: PushContent, title: String?, body: String?) -> [UInt8] {
        var writer = PayloadWriter()
        writer.openObject()
        writer.key("aps")
        writeAps(content, title: title, body: body, alert: true, into: &writer)
        writeHeraldKeys(content, into: &writer)
        writer.closeObject()
        return writer.bytes
    }

    /// The `aps` object of a visible push, keys in byte order; `alert` false leaves the alert text out (FCM
    /// carries it in its own `notification`).
    static func writeAps(
        _ content: PushContent, title: String?, body: String?, alert: Bool, into writer: inout PayloadWriter
    ) {
        writer.openObject()
        if alert, title != nil || body != nil {
            writer.key("alert")
            writer.openObject()
            if let body {
                writer.key("body")
                writer.string(body)
            }
            if let title {
                writer.key("title")
                writer.string(title)
            }
            writer.closeObject()
        }
        if let badge = content.badge {
            writer.key("badge")
            writer.int(max(0, badge))
        }
        if let category = content.apnsCategory {
            writer.key("category")
            writer.string(category)
        }
        writer.key("interruption-level")
        writer.string(content.effectiveInterruptionLevel.rawValue)
        if content.mode != .system {
            writer.key("mutable-content")
            writer.int(1)
        }
        if !content.silenced, content.interruptionLevel != .passive {
            writer.key("sound")
            if content.interruptionLevel == .critical {
                writer.openObject()
                writer.key("critical")
                writer.int(1)
                writer.key("name")
                writer.word("default")
                writer.key("volume")
                writer.int(1)
                writer.closeObject()
            } else {
                writer.word("default")
            }
        }
        if let threadId = content.threadId {
            writer.key("thread-id")
            writer.string(threadId)
        }
        writer.closeObject()
    }

    /// Herald's own keys of a visible push after `aps` (`cat` … `v`), in byte order, as `PushContent.heraldKeys`.
    static func writeHeraldKeys(_ content: PushContent, into writer: inout PayloadWriter) {
        writer.key("cat")
        writer.string(content.categoryId)
        writeHeraldTail(content, into: &writer)
    }

    /// The keys after `cat`: `cid`, `count`, `cursor`, `item`, `kind`, `nid`, `thread`, `v`.
    private static func writeHeraldTail(_ content: PushContent, into writer: inout PayloadWriter) {
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
        if let threadId = content.threadId {
            writer.key("thread")
            writer.string(threadId)
        }
        writer.key("v")
        writer.int(1)
    }
}
