import Foundation
import Testing

@testable import HeraldCore

/// Goldens of an alert with an image, a link and a relevance score: where each platform carries them, byte for
/// byte, and each checked against the platform rules.
@Suite struct MediaGoldenTests {
    static let image = "https://img.example/a/42.jpg?w=600&h=400"
    static let webLink = "https://chat.example/t/42?m=m7"
    static let deepLink = "chat://t/42?m=m7"

    /// The golden alert of the burst in `mode`, with an image, `link` and relevance 0.75.
    static func content(_ mode: Category.DeliveryMode, link: String = webLink) -> PushContent {
        var content = Golden.content(.alert, mode: mode)
        content.imageURL = image
        content.link = link
        content.relevanceScore = 0.75
        return content
    }

    static func body(
        _ platform: Device.Platform, _ mode: Category.DeliveryMode, link: String = webLink,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let content = content(mode, link: link)
        let built = try #require(
            PayloadBuilder.build(content, to: Golden.device(platform), userId: "u1"), sourceLocation: sourceLocation)
        #expect(!built.imageDropped, sourceLocation: sourceLocation)
        Golden.expectPlatformRules(built.delivery, content, sourceLocation: sourceLocation)
        return built.delivery.bodyText
    }

    @Test func apnsCarriesTheImageAndLinkBesideApsAndWakesTheExtension() throws {
        #expect(
            try Self.body(.apns, .system)
                == Golden.compact(
                    #"""
                    {"aps":{"alert":{"body":"Lunch at 1? \"Café\" <3","title":"Asha"},"badge":4,"category":"MESSAGE",
                            "interruption-level":"active","mutable-content":1,"relevance-score":0.75,"sound":"default",
                            "thread-id":"conversation:42"},
                     "cat":"chat.message","cid":"msg:42","img":"https://img.example/a/42.jpg?w=600&h=400","item":"m7",
                     "kind":"alert","link":"https://chat.example/t/42?m=m7","nid":"5d41402abc4b2a76b9719d911017c592",
                     "thread":"conversation:42","v":1}
                    """#))
    }

    @Test func fcmPutsTheImageInTheNotificationAndTheAppleBlockAndTheLinkInDataAndTheWebBlock() throws {
        #expect(
            try Self.body(.fcm, .system)
                == Golden.compact(
                    #"""
                    {"message":{
                      "android":{"collapse_key":"msg:42","notification":{"channel_id":"messages","default_sound":true,
                                 "notification_count":4,"tag":"msg:42"},"priority":"high","ttl":"86400s"},
                      "apns":{"fcm_options":{"image":"https://img.example/a/42.jpg?w=600&h=400"},
                              "headers":{"apns-collapse-id":"msg:42","apns-expiration":"1780401600","apns-priority":"10",
                                         "apns-push-type":"alert"},
                              "payload":{"aps":{"badge":4,"category":"MESSAGE","interruption-level":"active",
                                                "mutable-content":1,"relevance-score":0.75,"sound":"default",
                                                "thread-id":"conversation:42"}}},
                      "data":{"badge":"4","cat":"chat.message","cid":"msg:42","item":"m7","kind":"alert",
                              "link":"https://chat.example/t/42?m=m7","nid":"5d41402abc4b2a76b9719d911017c592",
                              "thread":"conversation:42","v":"1"},
                      "notification":{"body":"Lunch at 1? \"Café\" <3","image":"https://img.example/a/42.jpg?w=600&h=400",
                                      "title":"Asha"},
                      "token":"fcm-token-d-fcm",
                      "webpush":{"fcm_options":{"link":"https://chat.example/t/42?m=m7"}}}}
                    """#))
    }

    @Test func fcmInAppModeHandsTheImageToTheAppInData() throws {
        #expect(
            try Self.body(.fcm, .app)
                == Golden.compact(
                    #"""
                    {"message":{
                      "android":{"collapse_key":"msg:42","priority":"high","ttl":"86400s"},
                      "apns":{"headers":{"apns-collapse-id":"msg:42","apns-expiration":"1780401600","apns-priority":"10",
                                         "apns-push-type":"alert"},
                              "payload":{"aps":{"alert":{"body":"New message"},"badge":4,"category":"MESSAGE",
                                                "interruption-level":"active","mutable-content":1,"relevance-score":0.75,
                                                "sound":"default","thread-id":"conversation:42"}}},
                      "data":{"badge":"4","cat":"chat.message","cid":"msg:42","fallback_body":"New message",
                              "img":"https://img.example/a/42.jpg?w=600&h=400","item":"m7","kind":"alert",
                              "link":"https://chat.example/t/42?m=m7","nid":"5d41402abc4b2a76b9719d911017c592",
                              "thread":"conversation:42","v":"1"},
                      "token":"fcm-token-d-fcm",
                      "webpush":{"fcm_options":{"link":"https://chat.example/t/42?m=m7"}}}}
                    """#))
    }

    @Test func fcmKeepsAnAppsDeepLinkOutOfTheWebBlock() throws {
        let body = try Self.body(.fcm, .system, link: Self.deepLink)
        #expect(body.contains(#""link":"chat://t/42?m=m7""#))
        #expect(!body.contains("webpush"))
    }

    @Test func webPushNamesTheImageAndTheLinkAsTheNotificationsAPIDoesAndIsADeclarativeMessage() throws {
        // The service worker's members as before, and beside them a declarative message that a browser shows
        // by itself: the same text, image and tag, `navigate` the https link, `app_badge` the badge.
        #expect(
            try Self.body(.webpush, .system)
                == Golden.compact(
                    #"""
                    {"app_badge":4,"app_builds":false,"badge":4,"body":"Lunch at 1? \"Café\" <3","cat":"chat.message",
                     "cid":"msg:42","data":{"url":"https://chat.example/t/42?m=m7"},
                     "image":"https://img.example/a/42.jpg?w=600&h=400","item":"m7","kind":"alert",
                     "nid":"5d41402abc4b2a76b9719d911017c592",
                     "notification":{"body":"Lunch at 1? \"Café\" <3","data":{"url":"https://chat.example/t/42?m=m7"},
                                     "image":"https://img.example/a/42.jpg?w=600&h=400",
                                     "navigate":"https://chat.example/t/42?m=m7","silent":false,"tag":"msg:42",
                                     "title":"Asha"},
                     "silent":false,"tag":"msg:42","thread":"conversation:42","title":"Asha","v":1,"web_push":8030}
                    """#))
    }

    @Test func aDeclarativeMessageOfAnAppBuiltNotificationWakesTheServiceWorker() throws {
        // Combined: the app enriches the notification, so the browser hands it to the service worker first.
        let combined = try #require(Fixture.parse(Array(try Self.body(.webpush, .combined).utf8)))
        #expect(combined["mutable"] as? Bool == true && combined["web_push"] as? Int == 8_030)
        #expect((combined["notification"] as? [String: Any])?["title"] as? String == "Asha")
        // App mode has no title of Herald's (only a fallback body): no declarative message, the worker shows it.
        let app = try #require(Fixture.parse(Array(try Self.body(.webpush, .app).utf8)))
        #expect(app["web_push"] == nil && app["notification"] == nil && app["mutable"] == nil)
        #expect((app["data"] as? [String: Any])?["url"] as? String == Self.webLink)
    }

    @Test func anAppsDeepLinkOrNoLinkIsLeftToTheServiceWorker() throws {
        // A declarative message must navigate to an absolute https address, and Herald knows no default one.
        let deep = try #require(Fixture.parse(Array(try Self.body(.webpush, .system, link: Self.deepLink).utf8)))
        #expect(deep["web_push"] == nil && deep["notification"] == nil && deep["app_badge"] == nil)
        #expect((deep["data"] as? [String: Any])?["url"] as? String == Self.deepLink)
        var linkless = Self.content(.system)
        linkless.link = nil
        let delivery = try #require(PayloadBuilder.delivery(for: linkless, to: Golden.device(.webpush), userId: "u1"))
        #expect(!delivery.bodyText.contains("web_push") && !delivery.bodyText.contains("navigate"))
        Golden.expectPlatformRules(delivery, linkless)
    }

    @Test func anEncryptedWNSAlertCarriesNoDeclarativeMessage() throws {
        // Its raw body is Web Push's document for the app's background task, which no browser shows.
        var content = Self.content(.combined)
        content.ciphertext = "aW9zIGNpcGhlcnRleHQ="
        let delivery = try #require(PayloadBuilder.delivery(for: content, to: Golden.device(.wns), userId: "u1"))
        #expect(delivery.headers["X-WNS-Type"] == "wns/raw")
        let root = try #require(Fixture.parse(delivery.body))
        #expect(root["web_push"] == nil && root["notification"] == nil && root["mutable"] == nil)
        #expect((root["data"] as? [String: Any])?["url"] as? String == Self.webLink)
    }

    @Test func wnsOpensTheLinkOnATapAndShowsTheImageInline() throws {
        #expect(
            try Self.body(.wns, .system)
                == Golden.xml(
                    """
                    <toast activationType="protocol" launch="https://chat.example/t/42?m=m7">
                      <visual><binding template="ToastGeneric">
                        <text>Asha</text>
                        <text>Lunch at 1? &quot;Café&quot; &lt;3</text>
                        <image src="https://img.example/a/42.jpg?w=600&amp;h=400"/>
                      </binding></visual>
                    </toast>
                    """))
        #expect(
            try Self.body(.wns, .system, link: Self.deepLink).hasPrefix(
                #"<toast activationType="protocol" launch="chat://t/42?m=m7">"#))
    }

    @Test(arguments: Device.Platform.allCases)
    func anImageThatDoesNotFitGoesBeforeAnyTextIsCut(platform: Device.Platform) throws {
        var content = Self.content(.system)
        content.imageURL = "https://img.example/" + String(repeating: "p", count: 1_000)
        let limit = [Device.Platform.apns: 4_096, .fcm: 4_096, .webpush: 3_993, .wns: 5_000][platform]!
        let device = Golden.device(platform)
        // A body that fits only without the image: the image goes, the text stays whole. The room is measured
        // with the link and without the image; a platform may carry the body twice (a declarative Web Push
        // message has its own copy).
        func size(_ body: String) -> Int {
            var imageless = content
            imageless.imageURL = nil
            imageless.body = body
            return PayloadBuilder.delivery(for: imageless, to: device, userId: "u1")!.body.count
        }
        let copies = size("b") - size("")
        let room = limit - size("")
        content.body = String(repeating: "b", count: (room - 200) / copies)
        let built = try #require(PayloadBuilder.build(content, to: device, userId: "u1"))
        #expect(built.imageDropped)
        #expect(!built.delivery.bodyText.contains("pppp"))
        #expect(built.delivery.bodyText.contains(content.body!))
        Golden.expectPlatformRules(built.delivery, content)
        // With room for both, both stay.
        content.body = "short"
        let roomy = try #require(PayloadBuilder.build(content, to: device, userId: "u1"))
        #expect(!roomy.imageDropped)
        #expect(roomy.delivery.bodyText.contains("pppp"))
        // Text too long even alone: the image goes and the text is cut, never the other way round.
        content.body = String(repeating: "b", count: limit)
        let cut = try #require(PayloadBuilder.build(content, to: device, userId: "u1"))
        #expect(cut.imageDropped)
        #expect(!cut.delivery.bodyText.contains("pppp"))
        #expect(cut.delivery.bodyText.contains(TextFitting.ellipsis))
        #expect(cut.delivery.bodyText.contains("https://chat.example/t/42"))
    }
}
