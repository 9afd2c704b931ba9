import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// An event as received by `POST /v1/events` or from NATS, validated, with its stored document (`EventDocument`),
/// whose SHA-256 is the body hash that tells a retry (same body) from a conflicting reuse of an id.
struct IncomingEvent: Sendable {
    typealias Tree = HeraldHTTP.JSONValue

    /// The event, under its source and upstream id.
    var event: HeraldCore.Event
    /// The canonical stored document.
    var document: String
    var bodyHash: String

    /// The service that published it.
    var source: String { event.source }

    /// The members an event may have.
    static let members: Set<String> = [
        "id", "source", "category", "occurred_at", "actor", "actor_name", "recipients", "topic", "thread_id",
        "item_id", "data", "collapse_key", "image_url", "link", "ciphertext", "live_activity",
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
        } else if source == CampaignRepository.eventSource {
            reader.fail("/source", "is reserved for the events of campaigns")
        }
        let category = reader.string("category", required: true)
        let occurredText = reader.string("occurred_at", required: true)
        let occurredAt = occurredText.flatMap(ISO8601.parse)
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
        let event = HeraldCore.Event(
            source: source ?? "", id: id ?? "", category: category ?? "", recipients: recipients,
            actor: reader.string("actor"), actorName: reader.string("actor_name"),
            threadId: reader.string("thread_id"), itemId: reader.string("item_id"), data: data,
            occurredAt: occurredAt ?? Date(timeIntervalSince1970: 0), collapseKey: collapseKey,
            imageURL: reader.string("image_url"), link: reader.string("link"), ciphertext: reader.ciphertext(),
            liveActivity: reader.liveActivity())
        if id != nil, category != nil {
            for error in event.validate() where !reader.hasError(at: error.pointer) {
                reader.fail(error.pointer, error.message)
            }
        }
        for error in ReadEvent.problems(event) { reader.fail(error.pointer, error.message) }
        guard reader.errors.isEmpty, source != nil, occurredAt != nil else {
            return .invalid(FieldError.listed(reader.errors))
        }
        let document = EventDocument.encode(event)
        return .event(
            IncomingEvent(event: event, document: document, bodyHash: SHA256.hex(document)))
    }
}

/// Reads the members of one event object, collecting errors as it goes.
struct EventFieldReader {
    let members: [String: HeraldHTTP.JSONValue]
    var errors: [FieldError] = []
    /// The pointers of `errors`, so that asking for one costs the same however many there are.
    private var failed: Set<String> = []

    init(members: [String: HeraldHTTP.JSONValue]) { self.members = members }

    mutating func fail(_ pointer: String, _ detail: String) {
        errors.append(FieldError(pointer: pointer, message: detail))
        failed.insert(pointer)
    }

    func hasError(at pointer: String) -> Bool { failed.contains(pointer) }

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

    /// `ciphertext`: one base64 string, or an object of them by installation id; null counts as absent. Errors name
    /// the member, never its content.
    mutating func ciphertext() -> HeraldCore.Ciphertext? {
        switch members["ciphertext"] {
        case nil, .null?: return nil
        case .string(let text)?: return .shared(text)
        case .object(let object)?:
            var texts: [String: String] = [:]
            for (installation, value) in object {
                guard case .string(let text) = value else {
                    fail("/ciphertext/" + FieldError.token(installation), "must be a base64 string")
                    continue
                }
                texts[installation] = text
            }
            return .perInstallation(texts)
        default:
            fail("/ciphertext", "must be a base64 string or an object of base64 strings by installation id")
            return nil
        }
    }

    /// `live_activity`: `{activity_id, event, stale_date, dismissal_date}`; null counts as absent.
    mutating func liveActivity() -> LiveActivityUpdate? {
        guard let value = members["live_activity"], !value.isNull else { return nil }
        return LiveActivityUpdate(json: PreviewRequest.core(value), errors: &errors)
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
