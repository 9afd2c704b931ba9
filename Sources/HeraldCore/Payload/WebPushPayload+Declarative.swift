/// The declarative Web Push members of an alert or digest: a browser that understands declarative push messages
/// shows the `notification` itself, opens `navigate` on a click and sets the app badge, without running the
/// service worker; one that does not hands the whole body to the service worker, which reads Herald's members
/// beside them as before.
///
/// A declarative message must name an absolute URL to navigate to and a title. Herald's model has no default
/// address per app or device, so only a push whose link is an `https://` address, and whose title is not empty,
/// carries the declarative members; any other push (an app's deep link, no link, no title, a withdrawal) is the
/// service worker's alone.
extension WebPushPayload {
    /// The value of `web_push` that marks a declarative push message.
    public static let declarativeMarker = 8_030

    /// The address a declarative message navigates to on a click, or nil when the push cannot be declarative.
    static func declarativeNavigate(for content: PushContent, title: String?) -> String? {
        guard let link = content.visibleWebLink, let title, !title.isEmpty else { return nil }
        return link
    }

    /// Whether the service worker is woken to change the notification before it shows (`mutable`): the app builds
    /// it, as for `app_builds`.
    static func declarativeIsMutable(_ content: PushContent) -> Bool { content.mode != .system }

    /// The declarative members as values, for `document(for:title:body:)`; nothing when the push cannot be
    /// declarative.
    static func declarativeMembers(
        for content: PushContent, title: String?, body: String?
    ) -> [String: JSONValue] {
        guard let navigate = declarativeNavigate(for: content, title: title), let title else { return [:] }
        var notification: [String: JSONValue] = [
            "title": .string(title), "navigate": .string(navigate), "silent": .bool(content.isQuiet),
            "data": .object(["url": .string(navigate)]),
        ]
        if let body { notification["body"] = .string(body) }
        if let image = content.visibleImage { notification["image"] = .string(image) }
        if let tag = content.collapseId { notification["tag"] = .string(tag) }
        var members: [String: JSONValue] = [
            "web_push": .int(declarativeMarker), "notification": .object(notification),
        ]
        if let badge = content.badge { members["app_badge"] = .int(max(0, badge)) }
        if declarativeIsMutable(content) { members["mutable"] = .bool(true) }
        return members
    }
}

/// The declarative members written directly, each where it sorts among the body's other keys.
extension JSONWriter {
    /// `app_badge`, the first key of a declarative body.
    mutating func declarativeAppBadge(_ content: PushContent, navigate: String?) {
        guard navigate != nil, let badge = content.badge else { return }
        key("app_badge")
        int(max(0, badge))
    }

    /// `mutable: true`, between `kind` and `nid`.
    mutating func declarativeMutable(_ content: PushContent, navigate: String?) {
        guard navigate != nil, WebPushPayload.declarativeIsMutable(content) else { return }
        key("mutable")
        bool(true)
    }

    /// The `notification` object, between `nid` and `silent`.
    mutating func declarativeNotification(_ content: PushContent, navigate: String?, title: String?, body: String?) {
        guard let navigate, let title else { return }
        key("notification")
        openObject()
        if let body {
            key("body")
            string(body)
        }
        key("data")
        openObject()
        key("url")
        string(navigate)
        closeObject()
        if let image = content.visibleImage {
            key("image")
            string(image)
        }
        key("navigate")
        string(navigate)
        key("silent")
        bool(content.isQuiet)
        if let tag = content.collapseId {
            key("tag")
            string(tag)
        }
        key("title")
        string(title)
        closeObject()
    }

    /// `web_push: 8030`, the last key of a declarative body.
    mutating func declarativeMarker(navigate: String?) {
        guard navigate != nil else { return }
        key("web_push")
        int(WebPushPayload.declarativeMarker)
    }
}
