import Foundation
import Testing

@testable import HeraldCore

@Suite("item.read events")
struct ReadEventTests {
    static func read(itemId: String? = nil, threadId: String? = nil, data: [String: JSONValue] = [:]) -> Event {
        Event(
            id: "r1", category: ReadEvent.categoryId, recipients: Event.Recipients(userIds: ["u1"]),
            threadId: threadId, itemId: itemId, data: data, occurredAt: Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test("A read names an item or a thread; another category's event is not judged as one")
    func problems() {
        #expect(ReadEvent.problems(Self.read()).map(\.pointer) == ["/item_id"])
        #expect(ReadEvent.problems(Self.read(itemId: "m1")).isEmpty)
        #expect(ReadEvent.problems(Self.read(threadId: "t1")).isEmpty)
        var other = Self.read()
        other.category = "chat.message"
        #expect(!ReadEvent.isRead(other))
        #expect(ReadEvent.problems(other).isEmpty)
    }

    @Test("Its scope: item_id then data.item_ids, each once, the thread, and the device that read them")
    func scope() {
        let event = Self.read(
            itemId: "m1", threadId: "t1",
            data: ["item_ids": .array([.string("m2"), .string("m1"), .int(3)]), "device": .string("phone")])
        let scope = ReadEvent.scope(event, userId: "u1")
        #expect(scope.userId == "u1")
        #expect(scope.itemIds == ["m1", "m2"])
        #expect(scope.threadId == "t1")
        #expect(scope.originInstallationId == "phone")
    }

    @Test("Its decision says how many unread items it covered, or that the user does not exist")
    func decision() {
        #expect(ReadEvent.decision(userExists: true, itemsRead: 2) == (.read, "items_read=2"))
        let unknown = ReadEvent.decision(userExists: false, itemsRead: 0)
        #expect(unknown.outcome == .suppressedUnknownUser)
        #expect(unknown.detail == nil)
    }
}
