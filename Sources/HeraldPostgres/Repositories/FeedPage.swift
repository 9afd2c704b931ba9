import HeraldCore

/// A page of the feed plus what the client shows beside it.
public struct FeedPage: Sendable {
    /// Up to the requested number of notifications after the cursor, oldest first.
    public var rows: [FeedRow]
    /// Whether more notifications follow the last row.
    public var hasMore: Bool
    /// The user's profile (locale and zone for rendering, badge setting).
    public var profile: UserProfile
    /// The user's unread count.
    public var unread: Int
}
