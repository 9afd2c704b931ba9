import Foundation
import Testing

@testable import HeraldCore

@Suite struct PayloadPropertyTests {
    @Test(arguments: Device.Platform.allCases)
    func randomContentNeverBreaksAPlatformRule(platform: Device.Platform) {
        // Property: 2,500 random contents per platform (10,000 in all), many far over the limits, with hostile
        // text: every delivery fits, parses, and obeys push-platforms.md.
        var generator = SeededGenerator(seed: 1_000 + UInt64(Device.Platform.allCases.firstIndex(of: platform)!))
        let device = Fixture.device("d1", platform: platform)
        var built = 0
        for _ in 0..<2_500 {
            let content = RandomContent.make(using: &generator)
            guard let delivery = PayloadBuilder.delivery(for: content, to: device, userId: "u1") else {
                Issue.record("no delivery for \(content.purpose)")
                continue
            }
            built += 1
            let broken = PayloadRules.violations(of: delivery, content: content)
            #expect(broken.isEmpty, "\(platform) \(content.purpose) \(content.mode): \(broken)")
            #expect(delivery.kind == content.purpose.deliveryKind)
            #expect(delivery.availableAt == content.availableAt && delivery.expiresAt == content.expiresAt)
        }
        #expect(built == 2_500)
    }

    @Test func withdrawalsKeepTheNewestIdsThatFitAndAskForASync() {
        let ids = (0..<300).map { "conversation:\($0):" + String(repeating: "x", count: 40) }
        let content = PushContent(
            purpose: .withdraw, notificationId: "n1", categoryId: "herald.read", badge: 2, withdrawIds: ids,
            expiresAt: Fixture.now + 3_600, availableAt: Fixture.now)
        for platform in Device.Platform.allCases {
            let delivery = PayloadBuilder.delivery(
                for: content, to: Fixture.device("d", platform: platform), userId: "u1")!
            let text = delivery.bodyText
            // WNS names the tags its toasts were shown with.
            let newest = platform == .wns ? CollapseIdentifier.wnsTag(for: ids[299]) : "conversation:299:"
            let oldest = platform == .wns ? CollapseIdentifier.wnsTag(for: ids[0]) : "conversation:0:"
            #expect(text.contains(newest), "\(platform) keeps the newest id")
            #expect(!text.contains(oldest), "\(platform) drops the oldest id")
            #expect(text.contains("\"sync\""), "\(platform) asks the app to reconcile")
        }
    }

    @Test func randomLiveActivityContentNeverBreaksAnAPNsRule() {
        // Property: 2,500 random updates and ends, content states up to the ingest limit with hostile text: every
        // push fits, parses, and obeys the Live Activity rules of push-platforms.md.
        var generator = SeededGenerator(seed: 4_242)
        for _ in 0..<2_500 {
            let content = LiveActivityRules.randomContent(using: &generator)
            guard
                let delivery = LiveActivityPayload.delivery(
                    for: content, to: Fixture.device("ios-1"), token: LiveActivityGoldenTests.token, userId: "u1")
            else {
                Issue.record("no push for a content state within the ingest limit")
                continue
            }
            let broken = LiveActivityRules.violations(of: delivery, content: content)
            #expect(broken.isEmpty, "\(content.update.event): \(broken)")
        }
    }
}
