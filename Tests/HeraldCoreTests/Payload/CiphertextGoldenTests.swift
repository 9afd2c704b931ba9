import Foundation
import Testing

@testable import HeraldCore

/// Goldens of an encrypted alert: where each platform carries the ciphertext (`enc`) beside the fallback text, and
/// the `fetch` flag that takes its place when it does not fit, byte for byte, each checked against the platform
/// rules.
@Suite struct CiphertextGoldenTests {
    /// "secret: lunch at 1?" in base64, standing in for content encrypted for the device.
    static let ciphertext = "c2VjcmV0OiBsdW5jaCBhdCAxPw=="

    /// The golden alert in `app` mode (the mode of every encrypted push) with `ciphertext`.
    static func content(ciphertext: String? = Self.ciphertext) -> PushContent {
        var content = Golden.content(.alert, mode: .app)
        content.ciphertext = ciphertext
        content.cursor = "AQAAAAAAAAAH"
        return content
    }

    static func built(
        _ platform: Device.Platform, _ content: PushContent, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> PayloadBuilder.Built {
        let built = try #require(
            PayloadBuilder.build(content, to: Golden.device(platform), userId: "u1"), sourceLocation: sourceLocation)
        Golden.expectPlatformRules(built.delivery, content, sourceLocation: sourceLocation)
        return built
    }

    static func body(_ platform: Device.Platform, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let built = try Self.built(platform, content(), sourceLocation: sourceLocation)
        #expect(!built.ciphertextFetched, sourceLocation: sourceLocation)
        return built.delivery.bodyText
    }

    @Test func apnsCarriesTheCiphertextBesideApsWithMutableContentAndTheFallbackAsTheAlert() throws {
        #expect(
            try Self.body(.apns)
                == Golden.compact(
                    #"""
                    {"aps":{"alert":{"body":"New message"},"badge":4,"category":"MESSAGE",
                            "interruption-level":"active","mutable-content":1,"sound":"default",
                            "thread-id":"conversation:42"},
                     "cat":"chat.message","cid":"msg:42","cursor":"AQAAAAAAAAAH","enc":"c2VjcmV0OiBsdW5jaCBhdCAxPw==",
                     "item":"m7","kind":"alert","nid":"5d41402abc4b2a76b9719d911017c592","thread":"conversation:42",
                     "v":1}
                    """#))
    }

    @Test func fcmCarriesTheCiphertextInDataOfADataMessage() throws {
        #expect(
            try Self.body(.fcm)
                == Golden.compact(
                    #"""
                    {"message":{
                      "android":{"collapse_key":"msg:42","priority":"high","ttl":"86400s"},
                      "apns":{"headers":{"apns-collapse-id":"msg:42","apns-expiration":"1780401600","apns-priority":"10",
                                         "apns-push-type":"alert"},
                              "payload":{"aps":{"alert":{"body":"New message"},"badge":4,"category":"MESSAGE",
                                                "interruption-level":"active","mutable-content":1,"sound":"default",
                                                "thread-id":"conversation:42"}}},
                      "data":{"badge":"4","cat":"chat.message","cid":"msg:42","cursor":"AQAAAAAAAAAH",
                              "enc":"c2VjcmV0OiBsdW5jaCBhdCAxPw==","fallback_body":"New message","item":"m7",
                              "kind":"alert","nid":"5d41402abc4b2a76b9719d911017c592","thread":"conversation:42",
                              "v":"1"},
                      "token":"fcm-token-d-fcm"}}
                    """#))
    }

    @Test func webPushCarriesTheCiphertextInTheBodyForTheServiceWorker() throws {
        #expect(
            try Self.body(.webpush)
                == Golden.compact(
                    #"""
                    {"app_builds":true,"badge":4,"body":"New message","cat":"chat.message","cid":"msg:42",
                     "cursor":"AQAAAAAAAAAH","enc":"c2VjcmV0OiBsdW5jaCBhdCAxPw==","item":"m7","kind":"alert",
                     "nid":"5d41402abc4b2a76b9719d911017c592","silent":false,"tag":"msg:42","thread":"conversation:42",
                     "v":1}
                    """#))
    }

    @Test func wnsSendsARawPushTheAppDecryptsAndShowsAsAToastTaggedAsHeraldsOwn() throws {
        let built = try Self.built(.wns, Self.content())
        #expect(
            built.delivery.headers == [
                "X-WNS-Type": "wns/raw", "Content-Type": "application/octet-stream", "X-WNS-Cache-Policy": "cache",
                "X-WNS-TTL": "86400",
            ])
        #expect(
            built.delivery.bodyText
                == Golden.compact(
                    #"""
                    {"app_builds":true,"badge":4,"body":"New message","cat":"chat.message","cid":"msg:42",
                     "cursor":"AQAAAAAAAAAH","enc":"c2VjcmV0OiBsdW5jaCBhdCAxPw==","item":"m7","kind":"alert",
                     "nid":"5d41402abc4b2a76b9719d911017c592","silent":false,
                     "tag":"\#(CollapseIdentifier.wnsTag(for: "msg:42"))","thread":"conversation:42","v":1}
                    """#))
    }

    @Test(arguments: Device.Platform.allCases)
    func aCiphertextThatDoesNotFitBecomesFetchAndTheTextStays(platform: Device.Platform) throws {
        let built = try Self.built(platform, Self.content(ciphertext: String(repeating: "QUJD", count: 1_300)))
        #expect(built.ciphertextFetched)
        let text = built.delivery.bodyText
        #expect(!text.contains("QUJDQUJD") && !text.contains("\"enc\""))
        #expect(text.contains(platform == .fcm ? #""fetch":"true""# : #""fetch":true"#))
        #expect(text.contains("New message") && text.contains("AQAAAAAAAAAH"))
        if platform == .wns { #expect(built.delivery.headers["X-WNS-Type"] == "wns/raw") }
    }

    @Test(arguments: Device.Platform.allCases)
    func theImageGoesBeforeTheCiphertext(platform: Device.Platform) throws {
        let limit = [Device.Platform.apns: 4_096, .fcm: 4_096, .webpush: 3_993, .wns: 5_000][platform]!
        let bare = try Self.built(platform, Self.content(ciphertext: nil)).delivery.body.count
        // A ciphertext that fits only without the image.
        var content = Self.content(ciphertext: String(repeating: "QUJD", count: (limit - bare - 200) / 4))
        content.imageURL = "https://img.example/" + String(repeating: "p", count: 1_000)
        let built = try Self.built(platform, content)
        #expect(built.imageDropped && !built.ciphertextFetched)
        #expect(built.delivery.bodyText.contains(content.ciphertext!))
        #expect(!built.delivery.bodyText.contains("pppp"))
    }

    @Test(arguments: Device.Platform.allCases)
    func aSystemPushNeverCarriesACiphertext(platform: Device.Platform) throws {
        var content = Golden.content(.alert, mode: .system)
        content.ciphertext = Self.ciphertext
        content.fetch = true
        let built = try Self.built(platform, content)
        #expect(!built.delivery.bodyText.contains(Self.ciphertext) && !built.delivery.bodyText.contains("fetch"))
        #expect(built.delivery.bodyText == Golden.delivery(.alert, mode: .system, platform: platform)?.bodyText)
    }
}
