/// Herald's own keys written directly, for the platforms whose alert bodies carry them beside their own keys.
extension JSONWriter {
    /// Where a platform's own keys sort among Herald's, so `heraldKeys` can hand over to the platform there.
    enum HeraldKeySlot {
        /// Between `cursor` and `item` (Herald's `enc` and `fetch`; FCM's `fallback_body`, `fallback_title` and
        /// `img`; APNs' `img`; Web Push's `data` and `image`). The platform writes `enc` and `fetch` where they sort
        /// among its own keys, with `ciphertext(_:)` and `fetchFlag(_:quoted:)`.
        case afterCursor
        /// Between `kind` and `nid` (the `link` of APNs and FCM).
        case afterKind
        /// Between `nid` and `thread` (Web Push's `silent` and `tag`).
        case afterNotificationId
        /// Between `thread` and `v` (Web Push's `title`).
        case afterThread
    }

    /// Herald's keys of a visible push (`cat` … `v`, as `PushContent.heraldKeys`) in byte order, calling `platform`
    /// at each slot where a platform's keys sort between them; `quoted` writes numbers as strings (FCM `data`).
    mutating func heraldKeys(
        _ content: PushContent, quoted: Bool,
        platform: (HeraldKeySlot, inout JSONWriter) -> Void = { _, _ in }
    ) {
        key("cat")
        string(content.categoryId)
        if let collapseId = content.collapseId {
            key("cid")
            string(collapseId)
        }
        if let count = content.count {
            key("count")
            number(count, quoted: quoted)
        }
        if let cursor = content.cursor, content.mode != .system {
            key("cursor")
            string(cursor)
        }
        platform(.afterCursor, &self)
        if let itemId = content.itemId {
            key("item")
            string(itemId)
        }
        key("kind")
        string(content.purpose.rawValue)
        platform(.afterKind, &self)
        key("nid")
        string(content.notificationId)
        platform(.afterNotificationId, &self)
        if let threadId = content.threadId {
            key("thread")
            string(threadId)
        }
        platform(.afterThread, &self)
        key("v")
        number(1, quoted: quoted)
    }

    /// The ciphertext of a visible push (`enc`), if it carries one.
    mutating func ciphertext(_ content: PushContent) {
        guard let ciphertext = content.visibleCiphertext else { return }
        key("enc")
        string(ciphertext)
    }

    /// `fetch: true` when the ciphertext did not fit; `quoted` writes it as a string (FCM `data`).
    mutating func fetchFlag(_ content: PushContent, quoted: Bool) {
        guard content.visibleFetch else { return }
        key("fetch")
        if quoted { word("true") } else { bool(true) }
    }

    /// An alert's text as an object, `body` before `title` (APNs `aps.alert`, FCM `notification`, which also
    /// carries the `image`).
    mutating func alertText(title: String?, body: String?, image: String? = nil) {
        openObject()
        if let body {
            key("body")
            string(body)
        }
        if let image {
            key("image")
            string(image)
        }
        if let title {
            key("title")
            string(title)
        }
        closeObject()
    }

    /// An integer, as a JSON number or, when `quoted`, as a string.
    mutating func number(_ value: Int, quoted: Bool) {
        if quoted { intString(value) } else { int(value) }
    }
}
