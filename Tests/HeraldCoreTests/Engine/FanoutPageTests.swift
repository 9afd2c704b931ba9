import Foundation
import Testing

@testable import HeraldCore

@Suite("A large audience, page by page")
struct FanoutPageTests {
    static func event(named: [String], topic: String?, category: String = "chat.message") -> Event {
        Event(
            id: "e1", category: category, recipients: Event.Recipients(userIds: named, topic: topic), data: [:],
            occurredAt: Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test("The first page takes the named users, then the subscribers, each once; one user alone is the page")
    func firstPage() {
        let page = FanoutPage(
            named: ["u2", "u1"], subscribers: ["u1", "u3"], firstPage: true,
            pageSize: 3)
        #expect(page.recipients == ["u2", "u1", "u3"])
        #expect(page.isLast)
        #expect(FanoutPage(named: ["u1"], subscribers: [], firstPage: true, pageSize: 3).recipients == ["u1"])
    }

    @Test("A later page leaves out the named users, who were decided with the first")
    func laterPage() {
        let page = FanoutPage(
            named: ["u2", "u1"], subscribers: ["u1", "u4", "u5"],
            firstPage: false, pageSize: 3)
        #expect(page.recipients == ["u4", "u5"])
        #expect(page.nextAfter == "u5")
        #expect(!page.isLast)
    }

    @Test("A full page is followed by another after its last subscriber; a short one ends the event")
    func paging() {
        #expect(FanoutPage(named: [], subscribers: ["a", "b"], firstPage: true, pageSize: 2).nextAfter == "b")
        #expect(FanoutPage(named: [], subscribers: ["c"], firstPage: false, pageSize: 2).isLast)
        #expect(FanoutPage(named: [], subscribers: [], firstPage: false, pageSize: 2).recipients.isEmpty)
    }

    @Test("A read reaches no topic; an event without a topic pages nothing")
    func topics() {
        #expect(FanoutPage.topic(of: Self.event(named: ["u1"], topic: "launch")) == "launch")
        #expect(FanoutPage.topic(of: Self.event(named: ["u1"], topic: "launch", category: ReadEvent.categoryId)) == nil)
        #expect(FanoutPage.topic(of: Self.event(named: ["u1"], topic: nil)) == nil)
    }
}
