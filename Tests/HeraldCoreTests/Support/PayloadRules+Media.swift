import Foundation

@testable import HeraldCore

/// The rules for images, links and relevance, per platform: where each goes, that an image is `https://`, that a
/// link is never dropped, and that an image goes before any text is cut.
extension PayloadRules {
    /// What a delivered alert carries, read back from its platform's shape.
    struct Carried {
        var images: [String] = []
        var link: String?
        var title: String?
        var body: String?
    }

    static func mediaViolations(of delivery: Delivery, content: PushContent) -> [String] {
        guard content.isVisible else { return [] }
        var broken: [String] = []
        func rule(_ holds: Bool, _ name: String) { if !holds { broken.append(name) } }
        guard let carried = carried(by: delivery, content: content, rule: rule) else { return broken }
        rule(carried.images.allSatisfy { $0 == content.imageURL }, "the image is the content's")
        rule(carried.images.allSatisfy { $0.hasPrefix("https://") }, "images are https")
        rule(carried.link == content.link, "the link is never dropped")
        if !carried.images.isEmpty {
            rule(carried.title == content.title && carried.body == content.body, "image dropped before text is cut")
        }
        if delivery.platform != .wns {
            rule(
                carried.images.isEmpty || carried.images.count == expectedImageCopies(delivery, content), "image copies"
            )
        }
        return broken
    }

    /// How many places carry the image on a JSON platform: APNs `img`; FCM `notification.image` and
    /// `apns.fcm_options.image`, or `data.img` in app mode; Web Push `image`, and `notification.image` when
    /// the body is also a declarative message.
    private static func expectedImageCopies(_ delivery: Delivery, _ content: PushContent) -> Int {
        switch delivery.platform {
        case .fcm: return content.mode != .app ? 2 : 1
        case .webpush: return Fixture.parse(delivery.body)?["web_push"] != nil ? 2 : 1
        case .apns, .wns: return 1
        }
    }

    private static func carried(
        by delivery: Delivery, content: PushContent, rule: (Bool, String) -> Void
    ) -> Carried? {
        var carried = Carried()
        switch delivery.platform {
        case .apns:
            guard let root = Fixture.parse(delivery.body), let aps = root["aps"] as? [String: Any] else { return nil }
            carried.images = [root["img"] as? String].compactMap { $0 }
            carried.link = root["link"] as? String
            let alert = aps["alert"] as? [String: Any]
            carried.title = alert?["title"] as? String
            carried.body = alert?["body"] as? String
            checkRelevance(aps, content: content, rule: rule)
        case .fcm:
            guard let message = Fixture.parse(delivery.body)?["message"] as? [String: Any] else { return nil }
            let data = message["data"] as? [String: String] ?? [:]
            let notification = message["notification"] as? [String: Any]
            let apns = message["apns"] as? [String: Any] ?? [:]
            carried.images = [
                notification?["image"] as? String, (apns["fcm_options"] as? [String: Any])?["image"] as? String,
                data["img"],
            ].compactMap { $0 }
            carried.link = data["link"]
            let webLink = ((message["webpush"] as? [String: Any])?["fcm_options"] as? [String: Any])?["link"]
            rule(
                webLink as? String == (content.link?.hasPrefix("https://") == true ? content.link : nil),
                "webpush.fcm_options.link is the https link")
            carried.title = content.mode == .app ? data["fallback_title"] : notification?["title"] as? String
            carried.body = content.mode == .app ? data["fallback_body"] : notification?["body"] as? String
            let aps = (apns["payload"] as? [String: Any])?["aps"] as? [String: Any] ?? [:]
            checkRelevance(aps, content: content, rule: rule)
        case .webpush:
            return carriedAsWebPush(delivery)
        case .wns where delivery.headers["X-WNS-Type"] == "wns/raw":
            // An encrypted alert: the app shows the toast from Web Push's document.
            return carriedAsWebPush(delivery)
        case .wns:
            let xml = String(decoding: delivery.body, as: UTF8.self)
            if let link = content.link {
                let launch = #"activationType="protocol" launch=""# + WNSPayload.escape(link) + "\""
                carried.link = xml.contains(launch) ? link : nil
            } else {
                rule(xml.contains(#"<toast launch=""#), "toast launch names the notification")
            }
            if let image = content.imageURL, xml.contains(#"<image src=""# + WNSPayload.escape(image) + "\"/>") {
                carried.images = [image]
            }
            func shown(_ text: String?) -> String? {
                guard let text, xml.contains("<text>" + WNSPayload.escape(text) + "</text>") else { return nil }
                return text
            }
            carried.title = shown(content.title)
            carried.body = shown(content.body)
        }
        return carried
    }

    /// What a Web Push document carries (also the body of an encrypted WNS alert).
    private static func carriedAsWebPush(_ delivery: Delivery) -> Carried? {
        guard let root = Fixture.parse(delivery.body) else { return nil }
        var carried = Carried()
        let declarative = root["notification"] as? [String: Any]
        carried.images = [root["image"] as? String, declarative?["image"] as? String].compactMap { $0 }
        carried.link = (root["data"] as? [String: Any])?["url"] as? String
        carried.title = root["title"] as? String
        carried.body = root["body"] as? String
        return carried
    }

    /// `relevance-score`: the category's, a number from 0 to 1, on every visible push that has one.
    private static func checkRelevance(_ aps: [String: Any], content: PushContent, rule: (Bool, String) -> Void) {
        // Foundation's parser may hand back a decimal number, which `as? Double` refuses.
        let score = (aps["relevance-score"] as? NSNumber)?.doubleValue
        let same = score.flatMap { score in content.relevanceScore.map { abs(score - $0) < 1e-12 } }
        rule(same ?? (score == nil && content.relevanceScore == nil), "relevance-score is the category's")
        if let score { rule((0...1).contains(score), "relevance-score within 0 and 1") }
    }
}
