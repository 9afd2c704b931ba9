import Foundation
import HeraldCore
import Testing

@testable import HeraldService

@Suite("Stored events decode as the workers read them")
struct StoredEventTests {
    static let full = """
        {"id": "e1", "data": {"n": 3, "x": 1.5, "text": "hi \\"there\\"", "list": [1, "a", null]}, "actor": "u9", \
        "source": "chat", "item_id": "m1", "category": "chat.message", "thread_id": "t1", "actor_name": "Ann", \
        "recipients": {"topic": "room", "user_ids": ["u1", "u2"]}, "occurred_at": "2026-01-02T03:04:05Z", \
        "collapse_key": "k"}
        """

    @Test func everyFieldIsRead() throws {
        let event = try #require(StoredEvent.decode(Self.full))
        #expect(event.source == "chat" && event.id == "e1" && event.category == "chat.message")
        #expect(event.occurredAt == "2026-01-02T03:04:05Z")
        #expect(event.actor == "u9" && event.actorName == "Ann" && event.threadId == "t1" && event.itemId == "m1")
        #expect(event.collapseKey == "k")
        #expect(event.recipients == HeraldCore.Event.Recipients(userIds: ["u1", "u2"], topic: "room"))
        #expect(event.data["n"] == .int(3) && event.data["x"] == .double(1.5))
        #expect(event.data["text"] == .string(#"hi "there""#))
        #expect(event.data["list"] == .array([.int(1), .string("a"), .null]))
    }

    @Test func optionalFieldsMayBeAbsentOrNull() throws {
        let event = try #require(
            StoredEvent.decode(
                #"{"id":"e","source":"s","category":"c","occurred_at":"t","recipients":{"user_ids":null},"#
                    + #""data":{},"actor":null}"#))
        #expect(event.actor == nil && event.threadId == nil && event.recipients.userIds.isEmpty)
        #expect(event.recipients.topic == nil)
    }

    @Test(arguments: [
        #"{"id":"e","source":"s","category":"c","occurred_at":"t","recipients":{}}"#,
        #"{"id":"e","source":"s","category":"c","occurred_at":"t","recipients":{},"data":{},"actor":5}"#,
        #"{"id":"e","source":"s","category":"c","occurred_at":"t","recipients":{"user_ids":[1]},"data":{}}"#,
        #"{"id":7,"source":"s","category":"c","occurred_at":"t","recipients":{},"data":{}}"#,
        #"{"id":"e","source":"s","category":"c","occurred_at":"t","recipients":[],"data":{}}"#,
        "not json", "[]",
    ])
    func documentsOfAnotherShapeDoNotDecode(_ document: String) {
        #expect(StoredEvent.decode(document) == nil)
    }
}
