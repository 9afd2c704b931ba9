import Foundation
import HeraldCore
import HeraldHTTP

/// An event as stored in the inbox (its canonical JSON), read back by a worker.
struct StoredEvent: Sendable, Decodable {
    var source: String
    var id: String
    var category: String
    var occurredAt: String
    var actor: String?
    var actorName: String?
    var recipients: HeraldCore.Event.Recipients
    var threadId: String?
    var itemId: String?
    var data: [String: HeraldCore.JSONValue]
    var collapseKey: String?

    enum CodingKeys: String, CodingKey {
        case source, id, category, actor, recipients, data
        case occurredAt = "occurred_at"
        case actorName = "actor_name"
        case threadId = "thread_id"
        case itemId = "item_id"
        case collapseKey = "collapse_key"
    }

    /// Decodes a stored document; `nil` when it does not decode (it is then decided with no recipients). Workers
    /// decode every claimed event, so this reads the tree of the event parser instead of going through `Decodable`
    /// (several times slower), with the same answers: required fields present with their types, optional ones
    /// absent, null or of their type.
    static func decode(_ document: String) -> StoredEvent? {
        guard case .object(let fields)? = try? EventBodyParser.parse(Array(document.utf8)),
            case .string(let source)? = fields["source"], case .string(let id)? = fields["id"],
            case .string(let category)? = fields["category"], case .string(let occurredAt)? = fields["occurred_at"],
            case .object(let recipients)? = fields["recipients"], case .object(let data)? = fields["data"],
            let actor = optionalText(fields["actor"]), let actorName = optionalText(fields["actor_name"]),
            let threadId = optionalText(fields["thread_id"]), let itemId = optionalText(fields["item_id"]),
            let collapseKey = optionalText(fields["collapse_key"]), let topic = optionalText(recipients["topic"])
        else { return nil }
        var userIds: [String] = []
        switch recipients["user_ids"] {
        case nil, .null?: break
        case .array(let items)?:
            for item in items {
                guard case .string(let userId) = item else { return nil }
                userIds.append(userId)
            }
        default: return nil
        }
        return StoredEvent(
            source: source, id: id, category: category, occurredAt: occurredAt, actor: actor, actorName: actorName,
            recipients: HeraldCore.Event.Recipients(userIds: userIds, topic: topic), threadId: threadId,
            itemId: itemId, data: data, collapseKey: collapseKey)
    }

    /// An optional text field: `.some(nil)` when absent or null, `nil` when of another type (the document does not
    /// decode).
    private static func optionalText(_ value: HeraldCore.JSONValue?) -> String?? {
        switch value {
        case nil, .null?: return .some(nil)
        case .string(let text)?: return .some(text)
        default: return nil
        }
    }

    /// The engine's event. Its id is `source/id`: notification and delivery ids derive from it, and two sources
    /// may well use the same ids. (A source is a slug, so the slash cannot be ambiguous.)
    var engineEvent: HeraldCore.Event {
        HeraldCore.Event(
            id: source + "/" + id, category: category, recipients: recipients, actor: actor, actorName: actorName,
            threadId: threadId, itemId: itemId, data: data,
            occurredAt: JSONCoders.parseISO8601(occurredAt) ?? Date(timeIntervalSince1970: 0), collapseKey: collapseKey)
    }

    /// The reading device of an `item.read` event (`data.device`).
    var readingDevice: String? {
        if case .string(let device)? = data["device"] { return device }
        return nil
    }

    /// The items an `item.read` event names: `item_id` plus `data.item_ids`.
    var readItemIds: [String] {
        var ids = itemId.map { [$0] } ?? []
        if case .array(let items)? = data["item_ids"] {
            for case .string(let item) in items where !ids.contains(item) { ids.append(item) }
        }
        return ids
    }
}
