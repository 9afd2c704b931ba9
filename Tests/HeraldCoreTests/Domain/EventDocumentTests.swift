import Foundation
import HeraldCore
import Testing

/// An event's stored form: written canonically once, read back member by member as the workers read it.
@Suite("Event document")
struct EventDocumentTests {
    static let full = """
        {"id": "e1", "data": {"n": 3, "x": 1.5, "text": "hi \\"there\\"", "list": [1, "a", null]}, "actor": "u9", \
        "source": "chat", "item_id": "m1", "category": "chat.message", "thread_id": "t1", "actor_name": "Ann", \
        "recipients": {"topic": "room", "user_ids": ["u1", "u2"]}, "occurred_at": "2026-01-02T03:04:05Z", \
        "collapse_key": "k", "unknown": {"deep": [1]}}
        """

    static func decode(_ text: String) -> Event? { EventDocument.decode(Array(text.utf8)) }

    @Test func everyFieldIsRead() throws {
        let event = try #require(Self.decode(Self.full))
        #expect(event.source == "chat" && event.id == "e1" && event.category == "chat.message")
        #expect(event.reference == "chat/e1")
        #expect(event.occurredAt == Date(timeIntervalSince1970: 1_767_323_045))
        #expect(event.actor == "u9" && event.actorName == "Ann" && event.threadId == "t1" && event.itemId == "m1")
        #expect(event.collapseKey == "k")
        #expect(event.recipients == Event.Recipients(userIds: ["u1", "u2"], topic: "room"))
        #expect(event.data["n"] == .int(3) && event.data["x"] == .double(1.5))
        #expect(event.data["text"] == .string(#"hi "there""#))
        #expect(event.data["list"] == .array([.int(1), .string("a"), .null]))
    }

    @Test func optionalFieldsMayBeAbsentOrNull() throws {
        let event = try #require(
            Self.decode(
                #"{"id":"e","source":"s","category":"c","occurred_at":"2026-12-01T09:00:00.250Z","#
                    + #""recipients":{"user_ids":null},"data":{},"actor":null}"#))
        #expect(event.actor == nil && event.threadId == nil && event.recipients.userIds.isEmpty)
        #expect(event.recipients.topic == nil)
        #expect(event.occurredAt == Date(timeIntervalSince1970: 1_796_115_600.25))
    }

    @Test(arguments: [
        #"{"id":"e","source":"s","category":"c","occurred_at":"2026-12-01T09:00:00Z","recipients":{}}"#,
        #"{"id":"e","source":"s","category":"c","occurred_at":"2026-12-01T09:00:00Z","recipients":{},"data":{},"actor":5}"#,
        #"{"id":"e","source":"s","category":"c","occurred_at":"2026-12-01T09:00:00Z","recipients":{"user_ids":[1]},"data":{}}"#,
        #"{"id":7,"source":"s","category":"c","occurred_at":"2026-12-01T09:00:00Z","recipients":{},"data":{}}"#,
        #"{"id":"e","source":"s","category":"c","occurred_at":"2026-12-01T09:00:00Z","recipients":[],"data":{}}"#,
        #"{"id":"e","source":"s","category":"c","occurred_at":"yesterday","recipients":{},"data":{}}"#,
        #"{"id":"e","source":"s","category":"c","occurred_at":"2026-12-01T09:00:00Z","recipients":{},"data":{}} x"#,
        "not json", "[]",
    ])
    func documentsOfAnotherShapeDoNotDecode(_ document: String) {
        #expect(Self.decode(document) == nil)
    }

    /// What ingest writes is what the workers read, and its bytes are canonical: keys sorted, absent members left
    /// out, the instant in its one text form.
    @Test func anEncodedEventDecodesToItselfAndIsCanonical() throws {
        let event = Event(
            source: "chat", id: "m1", category: "chat.message",
            recipients: Event.Recipients(userIds: ["ana", "bo"], topic: "room"), actor: "bo", threadId: "t1",
            data: ["text": .string("hi\u{2028}"), "n": .int(2)],
            occurredAt: Date(timeIntervalSince1970: 1_796_115_600), collapseKey: "k")
        let document = EventDocument.encode(event)
        #expect(
            document
                == #"{"actor":"bo","category":"chat.message","collapse_key":"k","data":{"n":2,"text":"hi\u2028"},"#
                + #""id":"m1","occurred_at":"2026-12-01T09:00:00Z","recipients":{"topic":"room","user_ids":["ana","bo"]},"#
                + #""source":"chat","thread_id":"t1"}"#)
        #expect(EventDocument.decode(Array(document.utf8)) == event)
    }

    /// The document as a JSON tree of the event would serialize it (keys sorted by their bytes): the writer must
    /// give these bytes exactly, since a stored event's body hash is over them.
    static func treeForm(_ event: Event) -> String {
        var members: [String: JSONValue] = [
            "source": .string(event.source), "id": .string(event.id), "category": .string(event.category),
            "occurred_at": .string(ISO8601.format(event.occurredAt)), "data": .object(event.data),
        ]
        var recipients: [String: JSONValue] = ["user_ids": .array(event.recipients.userIds.map(JSONValue.string))]
        if let topic = event.recipients.topic { recipients["topic"] = .string(topic) }
        members["recipients"] = .object(recipients)
        let optional: [(String, String?)] = [
            ("actor", event.actor), ("actor_name", event.actorName), ("thread_id", event.threadId),
            ("item_id", event.itemId), ("collapse_key", event.collapseKey), ("image_url", event.imageURL),
            ("link", event.link),
        ]
        for (name, value) in optional { if let value { members[name] = .string(value) } }
        if let ciphertext = event.ciphertext { members["ciphertext"] = ciphertext.json }
        if let update = event.liveActivity { members["live_activity"] = update.json }
        return String(decoding: JSONValue.object(members).serialized(), as: UTF8.self)
    }

    @Test(arguments: [
        Event(
            source: "s", id: "e", category: "c", recipients: Event.Recipients(), data: [:],
            occurredAt: Date(timeIntervalSince1970: 0)),
        Event(
            source: "chat \"q\" \\ é", id: "m\u{2028}1", category: "chat.message",
            recipients: Event.Recipients(userIds: ["ana", "bö", "\u{7}"], topic: "room/1"), actor: "bo",
            actorName: "Bö \"B\"", threadId: "t1", itemId: "i1",
            data: ["text": .string("hi\n"), "n": .int(2), "x": .double(1.5), "deep": .array([.null, .bool(true)])],
            occurredAt: Date(timeIntervalSince1970: 1_796_115_600.25), collapseKey: "k",
            imageURL: "https://example.com/a.png", link: "app://x?y=1&z=2",
            ciphertext: .perInstallation(["ios": "QUJD", "web": "REVG"]),
            liveActivity: LiveActivityUpdate(
                activityId: "match-42", event: .end, dismissalDate: Date(timeIntervalSince1970: 1_796_119_200))),
        Event(
            source: "s", id: "e", category: "c", recipients: Event.Recipients(userIds: [], topic: "t"),
            data: ["": .string("")], occurredAt: Date(timeIntervalSince1970: 1_796_115_600), link: "",
            ciphertext: .shared("QUJD"), liveActivity: LiveActivityUpdate(activityId: "a")),
    ])
    func theWrittenDocumentIsTheTreesBytes(_ event: Event) throws {
        let document = EventDocument.encode(event)
        #expect(document == Self.treeForm(event))
        #expect(EventDocument.decode(Array(document.utf8)) == event)
    }
}
