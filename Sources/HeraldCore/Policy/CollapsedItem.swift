import Foundation

/// One event folded into a collapse group, as much of it as a digest needs.
public struct CollapsedItem: Sendable, Hashable, Codable {
    public var eventId: String
    public var itemId: String?
    public var actor: String?
    public var actorName: String?
    public var occurredAt: Date
    /// When this event's TTL runs out; the digest lives as long as its freshest event.
    public var expiresAt: Date

    /// Creates a folded item.
    public init(
        eventId: String, itemId: String? = nil, actor: String? = nil, actorName: String? = nil,
        occurredAt: Date, expiresAt: Date
    ) {
        self.eventId = eventId
        self.itemId = itemId
        self.actor = actor
        self.actorName = actorName
        self.occurredAt = occurredAt
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case actor
        case eventId = "event_id"
        case itemId = "item_id"
        case actorName = "actor_name"
        case occurredAt = "occurred_at"
        case expiresAt = "expires_at"
    }
}

/// What a closed burst adds up to: the input of the digest notification.
public struct DigestSummary: Sendable, Hashable, Codable {
    public var key: String
    public var collapseId: String
    /// Every event of the burst, the first one included when it was sent on its own.
    public var count: Int
    /// Events held back (not sent on their own) in this burst.
    public var folded: Int
    public var actorCount: Int
    /// Display names (or ids) of the most recent distinct actors, latest first.
    public var actorNames: [String]
    /// The latest items, newest last.
    public var latestItems: [CollapsedItem]
    public var expiresAt: Date

    enum CodingKeys: String, CodingKey {
        case key, count, folded
        case collapseId = "collapse_id"
        case actorCount = "actor_count"
        case actorNames = "actor_names"
        case latestItems = "latest_items"
        case expiresAt = "expires_at"
    }
}
