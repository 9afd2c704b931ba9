/// An event's one stored form: canonical JSON (keys sorted, absent members left out, the instant in its one text
/// form), whose SHA-256 tells a retry (same body) from a reuse of the id. Ingest writes it, and workers, the feed and
/// the simulator read it back member by member, with no tree but the event's `data`.
public enum EventDocument {
    /// The canonical document of `event`; `collapseKey` overrides the category's for this event. Written member by
    /// member in the order of the keys' bytes, as `JSONValue` sorts an object's keys, with no tree but the values
    /// that are JSON already (`data`, a ciphertext, a Live Activity update): ingest writes one per event.
    public static func encode(_ event: Event) -> String {
        var writer = JSONWriter(capacity: 256)
        func string(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            writer.key(name)
            writer.string(value)
        }
        func json(_ name: StaticString, _ value: JSONValue?) {
            guard let value else { return }
            writer.key(name)
            writer.json(value)
        }
        writer.openObject()
        string("actor", event.actor)
        string("actor_name", event.actorName)
        string("category", event.category)
        json("ciphertext", event.ciphertext?.json)
        string("collapse_key", event.collapseKey)
        json("data", .object(event.data))
        string("id", event.id)
        string("image_url", event.imageURL)
        string("item_id", event.itemId)
        string("link", event.link)
        json("live_activity", event.liveActivity?.json)
        string("occurred_at", ISO8601.format(event.occurredAt))
        writer.key("recipients")
        writer.openObject()
        string("topic", event.recipients.topic)
        writer.key("user_ids")
        writer.strings(event.recipients.userIds)
        writer.closeObject()
        string("source", event.source)
        string("thread_id", event.threadId)
        writer.closeObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The event a stored document holds, or nil when it does not decode: `source`, `id`, `category` and
    /// `occurred_at` must be strings (the last a date-time), `recipients` and `data` objects; the optional members
    /// are absent, null or strings (`ciphertext` a string or an object of strings). Members it does not know are
    /// passed over.
    public static func decode(_ document: [UInt8]) -> Event? {
        var fields = Fields()
        var parser = JSONParser(document)
        do {
            try parser.readObject { (name, parser) throws(JSONParser.Malformed) in try fields.read(name, &parser) }
            try parser.end()
        } catch {
            return nil
        }
        guard let source = fields.source, let id = fields.id, let category = fields.category,
            let occurredAt = fields.occurredAt.flatMap(ISO8601.parse), let recipients = fields.recipients,
            let data = fields.data
        else { return nil }
        return Event(
            source: source, id: id, category: category, recipients: recipients, actor: fields.actor,
            actorName: fields.actorName, threadId: fields.threadId, itemId: fields.itemId, data: data,
            occurredAt: occurredAt, collapseKey: fields.collapseKey, imageURL: fields.imageURL, link: fields.link,
            ciphertext: fields.ciphertext, liveActivity: fields.liveActivity)
    }

    /// The members read so far.
    private struct Fields {
        var source, id, category, occurredAt: String?
        var actor, actorName, threadId, itemId, collapseKey, imageURL, link: String?
        var recipients: Event.Recipients?
        var data: [String: JSONValue]?
        var ciphertext: Ciphertext?
        var liveActivity: LiveActivityUpdate?

        mutating func read(_ name: String, _ parser: inout JSONParser) throws(JSONParser.Malformed) {
            switch name {
            case "source": source = try parser.readString()
            case "id": id = try parser.readString()
            case "category": category = try parser.readString()
            case "occurred_at": occurredAt = try parser.readString()
            case "actor": actor = try parser.readOptionalString()
            case "actor_name": actorName = try parser.readOptionalString()
            case "thread_id": threadId = try parser.readOptionalString()
            case "item_id": itemId = try parser.readOptionalString()
            case "collapse_key": collapseKey = try parser.readOptionalString()
            case "image_url": imageURL = try parser.readOptionalString()
            case "link": link = try parser.readOptionalString()
            case "recipients": recipients = try Self.recipients(&parser)
            case "ciphertext":
                let value = try parser.readValue()
                guard value.isNull || Ciphertext(json: value) != nil else { throw JSONParser.Malformed() }
                ciphertext = Ciphertext(json: value)
            case "live_activity":
                let value = try parser.readValue()
                var errors: [FieldError] = []
                liveActivity = value.isNull ? nil : LiveActivityUpdate(json: value, errors: &errors)
                guard errors.isEmpty else { throw JSONParser.Malformed() }
            case "data":
                guard case .object(let members) = try parser.readValue() else { throw JSONParser.Malformed() }
                data = members
            default: _ = try parser.readValue()
            }
        }

        static func recipients(_ parser: inout JSONParser) throws(JSONParser.Malformed) -> Event.Recipients {
            var recipients = Event.Recipients()
            try parser.readObject { (name, parser) throws(JSONParser.Malformed) in
                switch name {
                case "user_ids":
                    recipients.userIds = []
                    guard try !parser.readNull() else { return }
                    try parser.readArray { (parser) throws(JSONParser.Malformed) in
                        recipients.userIds.append(try parser.readString())
                    }
                case "topic": recipients.topic = try parser.readOptionalString()
                default: _ = try parser.readValue()
                }
            }
            return recipients
        }
    }
}
