import Foundation
import HeraldCore
import Testing

@Suite("Notification media: images and links")
struct NotificationMediaTests {
    @Test(arguments: [
        ("https://cdn.example.com/a.png", true), ("https://cdn.example.com", true), ("http://cdn.example.com/a", false),
        ("https://", false), ("https:///a", false), ("https://cdn.example.com/a b.png", false),
        ("https://cdn.example.com/\"x\"", false), ("chat://t/1", false),
        ("https://cdn.example.com/" + String(repeating: "a", count: 1_001), false),
    ])
    func imageAddressesAreHTTPSOnly(text: String, valid: Bool) {
        #expect(NotificationMedia.isImageURL(text) == valid)
    }

    @Test(arguments: [
        ("chat://t/42", true), ("https://example.com/t/42", true), ("myapp:open", true),
        ("javascript:alert(1)", false), ("JavaScript:alert(1)", false), ("data:text/html,x", false),
        ("http://example.com", false), ("file:///etc/passwd", false), ("chat:", false), ("1chat://x", false),
        ("no scheme", false), ("httpsx://a", false),
    ])
    func linksAreDeepLinksOrHTTPS(text: String, valid: Bool) {
        #expect(NotificationMedia.isLink(text) == valid)
    }

    static let category = HeraldCore.Category(
        id: "chat.message", name: "Chat", imageTemplate: "https://cdn.example.com/avatars/{actor}.png",
        linkTemplate: "chat://t/{thread_id}")

    @Test func theEventsOwnAddressesComeFirstAndTemplatesPercentEncodeTheirFields() {
        var event = Event(
            source: "chat", id: "m1", category: "chat.message", recipients: .init(userIds: ["u1"]), actor: "Ana Lu",
            threadId: "conv/9", occurredAt: Date(timeIntervalSince1970: 0))
        #expect(NotificationMedia.link(for: event, category: Self.category) == "chat://t/conv%2F9")
        #expect(
            NotificationMedia.image(for: event, category: Self.category)
                == "https://cdn.example.com/avatars/Ana%20Lu.png")
        event.link = "https://example.com/m1"
        event.imageURL = "https://img.example.com/m1.jpg"
        #expect(NotificationMedia.link(for: event, category: Self.category) == "https://example.com/m1")
        #expect(NotificationMedia.image(for: event, category: Self.category) == "https://img.example.com/m1.jpg")
        event.threadId = nil
        event.link = nil
        #expect(NotificationMedia.link(for: event, category: Self.category) == nil)
    }

    @Test func eventsAndCategoriesRefuseBadAddressesWithTheirPointers() {
        let event = Event(
            source: "chat", id: "m1", category: "chat.message", recipients: .init(userIds: ["u1"]),
            occurredAt: Date(timeIntervalSince1970: 0), imageURL: "http://x.example/a.png", link: "javascript:x")
        #expect(Set(event.validate().map(\.pointer)) == ["/image_url", "/link"])
        let category = HeraldCore.Category(
            id: "c", name: "C", imageTemplate: "ftp://{actor}", linkTemplate: "chat://t/{nope}", relevanceScore: 1.5)
        // Neither category has templates; that is reported apart, under /templates.
        #expect(
            Set(category.validate().map(\.pointer)).subtracting(["/templates"])
                == ["/image_template", "/link_template", "/relevance_score"])
        #expect(Self.category.validate().map(\.pointer) == ["/templates"])
    }

    @Test func theNewFieldsSurviveTheStoredForm() throws {
        let event = Event(
            source: "chat", id: "m1", category: "chat.message", recipients: .init(userIds: ["u1"]),
            occurredAt: Date(timeIntervalSince1970: 0), imageURL: "https://img.example.com/a.png", link: "chat://t/1")
        #expect(EventDocument.decode(Array(EventDocument.encode(event).utf8)) == event)
        let category = try JSONDecoder().decode(
            HeraldCore.Category.self, from: JSONEncoder().encode(Self.category))
        #expect(category == Self.category)
    }
}
