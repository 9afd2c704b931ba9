/// The APNs body of alerts and digests written directly, without an intermediate document: these are the pushes
/// built for every device of every event, so they skip the dictionaries and the key sorting.
extension APNsPayload {
    /// The alert or digest body with the given (possibly shortened) text: the same bytes as
    /// `document(for:title:body:).serialized()`.
    static func alertBody(for content: PushContent, title: String?, body: String?) -> [UInt8] {
        var writer = JSONWriter()
        writer.openObject()
        writer.key("aps")
        writeAps(content, title: title, body: body, alert: true, into: &writer)
        writer.heraldKeys(content, quoted: false) { slot, writer in
            writeMedia(content, at: slot, into: &writer)
        }
        writer.closeObject()
        return writer.bytes
    }

    /// The `aps` object of a visible push, keys in byte order; `alert` false leaves the alert text out (FCM
    /// carries it in its own `notification`).
    static func writeAps(
        _ content: PushContent, title: String?, body: String?, alert: Bool, into writer: inout JSONWriter
    ) {
        writer.openObject()
        if alert, title != nil || body != nil {
            writer.key("alert")
            writer.alertText(title: title, body: body)
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
        if content.isMutable {
            writer.key("mutable-content")
            writer.int(1)
        }
        if let score = content.relevanceScore {
            writer.key("relevance-score")
            writer.double(score)
        }
        if !content.isQuiet {
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

    /// The ciphertext (`enc`, or `fetch`), the image (`img`) and the link (`link`) among Herald's keys, at their
    /// slots.
    static func writeMedia(
        _ content: PushContent, at slot: JSONWriter.HeraldKeySlot, into writer: inout JSONWriter
    ) {
        switch slot {
        case .afterCursor:
            writer.ciphertext(content)
            writer.fetchFlag(content, quoted: false)
            if let image = content.visibleImage {
                writer.key("img")
                writer.string(image)
            }
        case .afterKind:
            if let link = content.visibleLink {
                writer.key("link")
                writer.string(link)
            }
        case .afterNotificationId, .afterThread:
            break
        }
    }
}
