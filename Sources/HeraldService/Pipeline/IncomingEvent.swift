import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// An event as received by `POST /v1/events`, validated and brought to its canonical JSON form, whose SHA-256 is
/// the body hash that tells a retry (same body) from a conflicting reuse of an id.
struct IncomingEvent: Sendable {
    typealias Tree = HeraldHTTP.JSONValue

    var source: String
    /// The event as the engine sees it, under its upstream id.
    var event: HeraldCore.Event
    /// Overrides the category's collapse key for this event.
    var collapseKey: String?
    /// The reading device of an `item.read` event.
    var readingDevice: String?
    /// Canonical JSON: keys sorted, absent members omitted, the instant normalised.
    var document: String
    var bodyHash: String

    /// The members an event may have.
    static let members: Set<String> = [
        "id", "source", "category", "occurred_at", "actor", "actor_name", "recipients", "topic", "thread_id",
        "item_id", "data", "collapse_key",
    ]

    /// The row for the inbox.
    var ingestRow: EventIngestRow {
        EventIngestRow(source: source, id: event.id, categoryId: event.category, bodyHash: bodyHash, document: document)
    }

    /// A parsed event, or every problem found in it.
    enum Parsed: Sendable {
        case event(IncomingEvent)
        case invalid([FieldError])
    }

    /// Validates one event object; every problem is reported, each with its pointer inside the event.
    static func parse(_ value: Tree, extraMembers: Set<String> = []) -> Parsed {
        guard case .object(let members) = value else {
            return .invalid([FieldError(pointer: "", message: "must be a JSON object")])
        }
        var reader = EventFieldReader(members: members)
        for name in members.keys.sorted() where !Self.members.contains(name) && !extraMembers.contains(name) {
            reader.fail("/" + FieldError.token(name), "is not a member of an event")
        }
        let id = reader.string("id", required: true)
        let source = reader.string("source", required: true)
        if let source, !CategoryRules.isSlug(source) {
            reader.fail("/source", "must be 1 to 64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit")
        }
        let category = reader.string("category", required: true)
        let occurredText = reader.string("occurred_at", required: true)
        let occurredAt = occurredText.flatMap(JSONCoders.parseISO8601)
        if occurredText != nil, occurredAt == nil {
            reader.fail("/occurred_at", "must be an RFC 3339 date-time such as 2026-12-01T09:00:00Z")
        }
        let recipients = reader.recipients()
        let data = reader.data()
        let collapseKey = reader.string("collapse_key")
        if let collapseKey,
            collapseKey.isEmpty || collapseKey.utf8.count > 128 || collapseKey.contains(where: { "{}".contains($0) })
        {
            reader.fail("/collapse_key", "must be 1 to 128 bytes without braces")
        }
        var event = HeraldCore.Event(
            id: id ?? "", category: category ?? "", recipients: recipients, actor: reader.string("actor"),
            actorName: reader.string("actor_name"), threadId: reader.string("thread_id"),
            itemId: reader.string("item_id"), data: data.mapValues(Self.coreValue),
            occurredAt: occurredAt ?? Date(timeIntervalSince1970: 0))
        if id != nil, category != nil {
            for error in event.validate() where !reader.hasError(at: error.pointer) {
                reader.fail(error.pointer, error.message)
            }
        }
        var readingDevice: String?
        if category == EventRepository.readCategory {
            if event.itemId == nil && event.threadId == nil {
                reader.fail("/item_id", "a read names an item_id or a thread_id")
            }
            if case .string(let device)? = data["device"] { readingDevice = device }
        }
        guard reader.errors.isEmpty, let source, let occurredAt else { return .invalid(reader.errors) }
        event.occurredAt = occurredAt
        let document = canonicalDocument(
            source: source, event: event, occurredText: JSONCoders.formatISO8601(occurredAt), data: data,
            collapseKey: collapseKey)
        return .event(
            IncomingEvent(
                source: source, event: event, collapseKey: collapseKey, readingDevice: readingDevice,
                document: document, bodyHash: SHA256.hex(document)))
    }

    static func canonicalDocument(
        source: String, event: HeraldCore.Event, occurredText: String, data: [String: Tree], collapseKey: String?
    ) -> String {
        var members: [String: Tree] = [
            "source": .string(source), "id": .string(event.id), "category": .string(event.category),
            "occurred_at": .string(occurredText), "data": .object(data),
        ]
        var recipients: [String: Tree] = ["user_ids": .array(event.recipients.userIds.map(Tree.string))]
        if let topic = event.recipients.topic { recipients["topic"] = .string(topic) }
        members["recipients"] = .object(recipients)
        let optional: [(String, String?)] = [
            ("actor", event.actor), ("actor_name", event.actorName), ("thread_id", event.threadId),
            ("item_id", event.itemId), ("collapse_key", collapseKey),
        ]
        for (name, value) in optional { if let value { members[name] = .string(value) } }
        return Tree.object(members).jsonText
    }

    /// The engine's JSON value for an API JSON value.
    static func coreValue(_ value: Tree) -> HeraldCore.JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(coreValue))
        case .object(let members): .object(members.mapValues(coreValue))
        }
    }
}

/// Reads the members of one event object, collecting errors as it goes.
struct EventFieldReader {
    let members: [String: HeraldHTTP.JSONValue]
    var errors: [FieldError] = []

    mutating func fail(_ pointer: String, _ detail: String) {
        errors.append(FieldError(pointer: pointer, message: detail))
    }

    func hasError(at pointer: String) -> Bool { errors.contains { $0.pointer == pointer } }

    /// A string member; null counts as absent.
    mutating func string(_ name: String, required: Bool = false) -> String? {
        switch members[name] {
        case .string(let text)?: return text
        case nil, .null?:
            if required { fail("/" + name, "is required") }
            return nil
        default:
            fail("/" + name, "must be a string")
            return nil
        }
    }

    /// `recipients` as an array of user ids or `{user_ids, topic}`, plus an optional top-level `topic`.
    mutating func recipients() -> HeraldCore.Event.Recipients {
        var userIds: [String] = []
        var topic = string("topic")
        switch members["recipients"] {
        case .array(let items)?:
            userIds = strings(items, pointer: "/recipients")
        case .object(let object)?:
            for name in object.keys where name != "user_ids" && name != "topic" {
                fail("/recipients/" + FieldError.token(name), "is not a member of recipients")
            }
            switch object["user_ids"] {
            case .array(let items)?: userIds = strings(items, pointer: "/recipients/user_ids")
            case nil, .null?: break
            default: fail("/recipients/user_ids", "must be an array of user ids")
            }
            switch object["topic"] {
            case .string(let text)?:
                if topic != nil { fail("/topic", "give the topic once") }
                topic = text
            case nil, .null?: break
            default: fail("/recipients/topic", "must be a string")
            }
        case nil, .null?: break
        default: fail("/recipients", "must be an array of user ids or an object with user_ids and topic")
        }
        return HeraldCore.Event.Recipients(userIds: userIds, topic: topic)
    }

    private mutating func strings(_ items: [HeraldHTTP.JSONValue], pointer: String) -> [String] {
        var values: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                fail("\(pointer)/\(index)", "must be a string")
                continue
            }
            values.append(text)
        }
        return values
    }

    /// `data`: an object; null or absent is empty.
    mutating func data() -> [String: HeraldHTTP.JSONValue] {
        switch members["data"] {
        case .object(let object)?: return object
        case nil, .null?: return [:]
        default:
            fail("/data", "must be an object")
            return [:]
        }
    }
}
