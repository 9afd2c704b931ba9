import Foundation

/// One event folded into a collapse group, as much of it as a digest needs.
public struct CollapsedItem: Sendable, Hashable, Codable {
    public var eventId: String
    public var itemId: String?
    public var actor: String?
    public var actorName: String?
    /// The thread the event belongs to, if any.
    public var threadId: String?
    public var occurredAt: Date
    /// When this event's TTL runs out; the digest lives as long as its freshest event.
    public var expiresAt: Date

    /// Creates a folded item.
    public init(
        eventId: String, itemId: String? = nil, actor: String? = nil, actorName: String? = nil,
        threadId: String? = nil, occurredAt: Date, expiresAt: Date
    ) {
        self.eventId = eventId
        self.itemId = itemId
        self.actor = actor
        self.actorName = actorName
        self.threadId = threadId
        self.occurredAt = occurredAt
        self.expiresAt = expiresAt
    }

    /// `event` of `category` folded into a burst, in thread `thread`: it expires when the event does.
    public init(_ event: Event, category: Category, thread: String?) {
        self.init(event, eventId: event.reference, thread: thread, expiresAt: category.expiry(of: event))
    }

    /// The same, for a decider that has the event's reference and its expiry (`Category.expiry(of:)`) at hand.
    init(_ event: Event, eventId: String, thread: String?, expiresAt: Date) {
        self.init(
            eventId: eventId, itemId: event.itemId, actor: event.actor, actorName: event.actorName, threadId: thread,
            occurredAt: event.occurredAt, expiresAt: expiresAt)
    }

    enum CodingKeys: String, CodingKey {
        case actor
        case eventId = "event_id"
        case itemId = "item_id"
        case actorName = "actor_name"
        case threadId = "thread_id"
        case occurredAt = "occurred_at"
        case expiresAt = "expires_at"
    }
}
