import Foundation

@testable import HeraldCore

/// The rules of declarative Web Push on a Web Push body: present exactly for a visible push with an `https://`
/// link and a title, well-formed as a declarative push message, and saying what the service worker's members say.
extension PayloadRules {
    /// The members a declarative message's `notification` may hold.
    static let declarativeNotificationMembers: Set<String> = [
        "title", "body", "navigate", "image", "tag", "silent", "lang", "dir", "data", "icon", "badge", "vibrate",
        "timestamp", "renotify", "require_interaction", "actions",
    ]

    static func declarativeViolations(of delivery: Delivery, content: PushContent) -> [String] {
        guard delivery.platform == .webpush, let root = Fixture.parse(delivery.body) else { return [] }
        var broken: [String] = []
        func rule(_ holds: Bool, _ name: String) { if !holds { broken.append(name) } }
        let title = root["title"] as? String
        let expected =
            content.isVisible && content.link?.hasPrefix("https://") == true && title.map { !$0.isEmpty } == true
        rule((root["web_push"] != nil) == expected, "declarative exactly with an https link and a title")
        rule((root["notification"] != nil) == expected, "a notification object exactly when declarative")
        guard expected else {
            rule(root["app_badge"] == nil && root["mutable"] == nil, "no declarative members otherwise")
            return broken
        }
        rule(
            root["web_push"] as? Int == WebPushPayload.declarativeMarker && WebPushPayload.declarativeMarker == 8_030,
            "web_push is 8030")
        guard let notification = root["notification"] as? [String: Any] else { return broken + ["notification"] }
        rule(Set(notification.keys).isSubset(of: declarativeNotificationMembers), "only declarative members")
        rule(notification["title"] as? String == title, "the title is the service worker's")
        let navigate = notification["navigate"] as? String
        let url = navigate.flatMap(URL.init(string:))
        rule(url?.scheme == "https" && url?.host?.isEmpty == false, "navigate is an absolute https URL")
        rule(navigate == content.link, "navigate is the link")
        rule((notification["data"] as? [String: Any])?["url"] as? String == navigate, "data.url is the link")
        rule(notification["body"] as? String == root["body"] as? String, "the body is the service worker's")
        rule(notification["image"] as? String == root["image"] as? String, "the image is the service worker's")
        rule(notification["tag"] as? String == root["tag"] as? String, "the tag is the service worker's")
        rule(notification["silent"] as? Bool == root["silent"] as? Bool, "silent is the service worker's")
        let badge = root["app_badge"] as? Int
        rule(badge == root["badge"] as? Int && (badge ?? 0) >= 0, "app_badge is the absolute badge")
        rule(
            root["mutable"] as? Bool == (content.mode == .system ? nil : true),
            "mutable exactly when the app builds the notification")
        return broken
    }
}
