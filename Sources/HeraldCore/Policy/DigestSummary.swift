import Foundation

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
    /// The thread every event of the burst belongs to, if they share one.
    public var threadId: String?
    public var expiresAt: Date
    /// When the burst began: its first event was decided at this instant (in whole microseconds). Its `count`
    /// events are its first ones by `membership`. `nil` for a burst stored before groups remembered it.
    public var startedAt: Date? = nil
    /// How many of the burst's notifications a read covered before its window closed. Not encoded.
    public var read = 0
    /// Which notifications belong to the burst: a digest stores it, and an open of the digest reads them. Not
    /// encoded.
    public var membership: BurstMembership? = nil

    /// The burst's notifications still unread: what the digest counts.
    public var unread: Int { max(0, count - read) }

    enum CodingKeys: String, CodingKey {
        case key, count, folded
        case collapseId = "collapse_id"
        case actorCount = "actor_count"
        case actorNames = "actor_names"
        case latestItems = "latest_items"
        case threadId = "thread_id"
        case expiresAt = "expires_at"
        case startedAt = "started_at"
    }
}
