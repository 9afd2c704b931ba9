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

    /// Decodes a stored document; `nil` when it does not decode (it is then decided with no recipients).
    static func decode(_ document: String) -> StoredEvent? {
        try? JSONDecoder().decode(StoredEvent.self, from: Data(document.utf8))
    }

    /// The engine's event. Its id is `source/id`: notification and delivery ids derive from it, and two sources
    /// may well use the same ids. (A source is a slug, so the slash cannot be ambiguous.)
    var engineEvent: HeraldCore.Event {
        HeraldCore.Event(
            id: source + "/" + id, category: category, recipients: recipients, actor: actor, actorName: actorName,
            threadId: threadId, itemId: itemId, data: data,
            occurredAt: JSONCoders.parseISO8601(occurredAt) ?? Date(timeIntervalSince1970: 0))
    }

    /// The category as this event sees it: an event's `collapse_key` replaces the category's key template (the
    /// window stays the category's; a category that does not collapse ignores it).
    func effectiveCategory(_ category: HeraldCore.Category?) -> HeraldCore.Category? {
        guard var category, let collapseKey, var rule = category.collapse else { return category }
        rule.keyTemplate = collapseKey
        category.collapse = rule
        return category
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
