import Foundation
import Testing

@testable import HeraldCore

/// The decider puts an event's image, link and relevance into every device's push, from the event or from the
/// category's templates, and records when an image had to be left out to fit.
@Suite struct DeciderMediaTests {
    static func decide(_ category: HeraldCore.Category, _ event: Event, devices: [Device]) -> DecisionResult {
        Fixture.decider().decide(
            event: event, category: category, recipients: ["u1"], states: ["u1": Fixture.state(devices: devices)],
            now: Fixture.now)
    }

    static func apnsRoot(_ result: DecisionResult) -> [String: Any] {
        Fixture.parse(result.deliveries.first { $0.platform == .apns }!.body) ?? [:]
    }

    @Test func theCategorysTemplatesGiveTheImageAndLinkFromTheEventsFields() {
        var category = Fixture.category()
        category.imageTemplate = "https://img.example/t/{thread_id}.png"
        category.linkTemplate = "chat://t/{thread_id}"
        category.relevanceScore = 0.4
        let event = Fixture.event(thread: "a b")
        let result = Self.decide(
            category, event, devices: [Fixture.device("ios"), Fixture.device("web", platform: .webpush)])
        let root = Self.apnsRoot(result)
        #expect(root["img"] as? String == "https://img.example/t/a%20b.png")
        #expect(root["link"] as? String == "chat://t/a%20b")
        #expect((root["aps"] as? [String: Any])?["relevance-score"] as? Double == 0.4)
        #expect((root["aps"] as? [String: Any])?["mutable-content"] as? Int == 1)
        let web = Fixture.parse(result.deliveries.first { $0.platform == .webpush }!.body) ?? [:]
        #expect((web["data"] as? [String: Any])?["url"] as? String == "chat://t/a%20b")
        #expect(result.decisions[0].detail == nil)
    }

    @Test func theEventsOwnImageAndLinkComeBeforeTheTemplates() {
        var category = Fixture.category()
        category.imageTemplate = "https://img.example/t/{thread_id}.png"
        var event = Fixture.event()
        event.imageURL = "https://cdn.example/own.jpg"
        event.link = "https://chat.example/own"
        let root = Self.apnsRoot(Self.decide(category, event, devices: [Fixture.device("ios")]))
        #expect(root["img"] as? String == "https://cdn.example/own.jpg")
        #expect(root["link"] as? String == "https://chat.example/own")
    }

    @Test func withoutAnImageASystemAlertStaysImmutable() {
        let root = Self.apnsRoot(Self.decide(Fixture.category(), Fixture.event(), devices: [Fixture.device("ios")]))
        #expect(root["img"] == nil && root["link"] == nil)
        #expect((root["aps"] as? [String: Any])?["mutable-content"] == nil)
        #expect((root["aps"] as? [String: Any])?["relevance-score"] == nil)
    }

    @Test func anImageLeftOutToFitIsRecordedInTheDecisionsDetail() {
        var event = Fixture.event(text: String(repeating: "long text ", count: 330))
        event.imageURL = "https://img.example/" + String(repeating: "p", count: 1_000)
        let result = Self.decide(
            Fixture.category(), event, devices: [Fixture.device("ios"), Fixture.device("win", platform: .wns)])
        #expect(result.decisions[0].outcome == .delivered)
        #expect(result.decisions[0].detail == "image_dropped")
        // APNs had no room for the image; WNS's larger limit kept it.
        #expect(Self.apnsRoot(result)["img"] == nil)
        let toast = result.deliveries.first { $0.platform == .wns }!.bodyText
        #expect(toast.contains("<image src="))
    }

    @Test func aDroppedImageJoinsTheZoneNote() {
        var event = Fixture.event(text: String(repeating: "long text ", count: 330))
        event.imageURL = "https://img.example/" + String(repeating: "p", count: 1_000)
        let result = Fixture.decider().decide(
            event: event, category: Fixture.category(), recipients: ["u1"],
            states: [
                "u1": Fixture.state(
                    devices: [Fixture.device("ios")],
                    quietHours: QuietHours(start: LocalTime("22:00")!, end: LocalTime("07:00")!),
                    zone: "Nowhere/Unknown")
            ], now: Fixture.now)
        #expect(result.decisions[0].detail == "zone_unknown,image_dropped")
    }
}
