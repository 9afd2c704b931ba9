import Foundation
import Testing

@testable import HeraldCore

/// The decider hands an event's ciphertext to each device whose app builds the notification: the same text to
/// every device, or each installation its own; the others get the identifiers and the fallback text only.
@Suite struct DeciderCiphertextTests {
    static let devices = [
        Fixture.device("ios", appBuilds: true), Fixture.device("android", platform: .fcm, appBuilds: true),
        Fixture.device("web", platform: .webpush, appBuilds: true),
        Fixture.device("win", platform: .wns, appBuilds: true), Fixture.device("old-ios", appBuilds: false),
    ]

    static func decide(
        _ ciphertext: Ciphertext?, mode: HeraldCore.Category.DeliveryMode = .combined, text: String = "Hello"
    ) -> DecisionResult {
        var event = Fixture.event(text: text)
        event.ciphertext = ciphertext
        return Fixture.decider().decide(
            event: event, category: Fixture.category(mode: mode), recipients: ["u1"],
            states: ["u1": Fixture.state(devices: devices)], now: Fixture.now)
    }

    /// The `enc` each installation's push carries, by installation id (an empty string for none).
    static func carried(_ result: DecisionResult) -> [String: String] {
        var carried: [String: String] = [:]
        for delivery in result.deliveries {
            let text = delivery.bodyText
            guard let range = text.range(of: #""enc":""#) else {
                carried[delivery.installationId] = ""
                continue
            }
            carried[delivery.installationId] = String(text[range.upperBound...].prefix { $0 != "\"" })
        }
        return carried
    }

    @Test(arguments: [HeraldCore.Category.DeliveryMode.app, .combined])
    func oneCiphertextGoesToEveryDeviceWhoseAppBuildsTheNotification(mode: HeraldCore.Category.DeliveryMode) {
        let result = Self.decide(.shared("QUJD"), mode: mode)
        #expect(result.decisions[0].outcome == .delivered && result.decisions[0].detail == nil)
        #expect(
            Self.carried(result) == ["ios": "QUJD", "android": "QUJD", "web": "QUJD", "win": "QUJD", "old-ios": ""])
        // Beside it, the fallback text, in app mode whatever the category's: Herald cannot read the content.
        let ios = Fixture.parse(result.deliveries.first { $0.installationId == "ios" }!.body)!
        #expect(((ios["aps"] as? [String: Any])?["alert"] as? [String: Any])?["body"] as? String == "New message")
        let android = Fixture.parse(result.deliveries.first { $0.installationId == "android" }!.body)!
        #expect((android["message"] as? [String: Any])?["notification"] == nil)
        // The device whose app does not build notifications gets Herald's own text.
        let old = Fixture.parse(result.deliveries.first { $0.installationId == "old-ios" }!.body)!
        #expect(((old["aps"] as? [String: Any])?["alert"] as? [String: Any])?["body"] as? String == "Hello")
        #expect(result.deliveries.allSatisfy { !$0.bodyText.contains("\"fetch\"") })
    }

    @Test func eachInstallationGetsItsOwnCiphertextAndOneWithoutAnEntryNone() {
        let result = Self.decide(.perInstallation(["ios": "aW9z", "web": "d2Vi", "elsewhere": "ZWxzZQ"]))
        #expect(Self.carried(result) == ["ios": "aW9z", "android": "", "web": "d2Vi", "win": "", "old-ios": ""])
        // Without an entry: identifiers and the fallback text, no fetch (there is nothing to pull).
        let android = result.deliveries.first { $0.installationId == "android" }!.bodyText
        #expect(android.contains(#""fallback_body":"New message""#) && !android.contains("fetch"))
        let win = result.deliveries.first { $0.installationId == "win" }!
        #expect(win.headers["X-WNS-Type"] == "wns/toast")
        #expect(result.decisions[0].detail == nil)
    }

    @Test func aSystemCategoryNeverSendsTheCiphertext() {
        let result = Self.decide(.shared("QUJD"), mode: .system)
        #expect(Self.carried(result).values.allSatisfy { $0.isEmpty })
        #expect(result.deliveries.allSatisfy { !$0.bodyText.contains("fetch") })
    }

    @Test func aCiphertextThatDoesNotFitIsFetchedAndTheDecisionSaysSo() {
        let long = String(repeating: "QUJD", count: 1_300)
        let result = Self.decide(.perInstallation(["ios": long, "web": "d2Vi"]))
        #expect(result.decisions[0].outcome == .delivered)
        #expect(result.decisions[0].detail == "ciphertext_fetch")
        #expect(result.decisions[0].detail?.contains("QUJD") == false)
        let ios = Fixture.parse(result.deliveries.first { $0.installationId == "ios" }!.body)!
        #expect(ios["fetch"] as? Bool == true && ios["enc"] == nil)
        #expect(ios["cursor"] as? String == FeedCursor(position: 1).text)
        #expect(Self.carried(result)["web"] == "d2Vi")
    }

    @Test func theFeedItemCarriesTheInstallationsCiphertextInAnAppBuiltCategoryOnly() {
        var event = Fixture.event()
        event.ciphertext = .perInstallation(["ios": "aW9z"])
        let combined = Fixture.category(mode: .combined)
        #expect(FeedText.ciphertext(event: event, category: combined, installationId: "ios") == "aW9z")
        #expect(FeedText.ciphertext(event: event, category: combined, installationId: "web") == nil)
        #expect(FeedText.ciphertext(event: event, category: combined, installationId: nil) == nil)
        #expect(FeedText.ciphertext(event: event, category: Fixture.category(), installationId: "ios") == nil)
        event.ciphertext = .shared("QUJD")
        #expect(FeedText.ciphertext(event: event, category: combined, installationId: "web") == "QUJD")
    }
}
