import Foundation
import Testing

@testable import HeraldCore

/// A feed item's image and link are those its alert's pushes carry: the event's own, else the category's
/// templates over the event's fields, and nothing when neither renders a valid one.
@Suite struct FeedTextTests {
    static func pushed(_ category: HeraldCore.Category, _ event: Event) -> (image: String?, link: String?) {
        let result = Fixture.decider().decide(
            event: event, category: category, recipients: ["u1"],
            states: ["u1": Fixture.state(devices: [Fixture.device("ios")])], now: Fixture.now)
        let root = result.deliveries.first.flatMap { Fixture.parse($0.body) } ?? [:]
        return (root["img"] as? String, root["link"] as? String)
    }

    static let templated: HeraldCore.Category = {
        var category = Fixture.category()
        category.imageTemplate = "https://img.example/t/{thread_id}.png"
        category.linkTemplate = "chat://t/{thread_id}"
        return category
    }()

    static let cases: [(String, HeraldCore.Category, Event)] = {
        var own = Fixture.event(thread: "a b")
        own.imageURL = "https://cdn.example/own.jpg"
        own.link = "https://chat.example/own?m=1"
        var brokenTemplate = Fixture.category()
        // A placeholder with no value renders no address: neither the push nor the feed item carries one.
        brokenTemplate.linkTemplate = "chat://t/{data.nothing}"
        return [
            ("templates", templated, Fixture.event(thread: "a b")),
            ("the event's own", templated, own),
            ("none", Fixture.category(), Fixture.event()),
            ("a template that renders nothing", brokenTemplate, Fixture.event()),
        ]
    }()

    @Test(arguments: cases.indices)
    func aFeedItemCarriesTheImageAndLinkAsItsPushDoes(index: Int) {
        let (name, category, event) = Self.cases[index]
        let media = FeedText.media(event: event, category: category)
        let pushed = Self.pushed(category, event)
        #expect(media.imageURL == pushed.image, "\(name)")
        #expect(media.link == pushed.link, "\(name)")
        if index >= 2 { #expect(media.imageURL == nil && media.link == nil, "\(name)") }
    }

    @Test func templatesPercentEncodeTheEventsFields() {
        let media = FeedText.media(event: Fixture.event(thread: "a b"), category: Self.templated)
        #expect(media.imageURL == "https://img.example/t/a%20b.png")
        #expect(media.link == "chat://t/a%20b")
    }
}
