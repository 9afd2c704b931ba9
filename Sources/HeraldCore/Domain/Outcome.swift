import Foundation

/// The reasons vocabulary: every decision ends in exactly one of these codes.
public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// Queued for every active device now.
    case delivered
    /// Queued for the end of the recipient's quiet hours.
    case deferredQuietHours = "deferred.quiet_hours"
    /// Queued now without sound, interruption level passive.
    case silencedQuietHours = "silenced.quiet_hours"
    /// Not sent: the category drops during quiet hours, or its TTL ends before they do.
    case droppedQuietHours = "dropped.quiet_hours"
    case suppressedPreference = "suppressed.preference"
    case suppressedMuted = "suppressed.muted"
    /// The event is older than the category's TTL.
    case suppressedExpired = "suppressed.expired"
    case suppressedUnknownUser = "suppressed.unknown_user"
    /// The recipient caused the event.
    case suppressedActor = "suppressed.actor"
    /// Over the per-category or per-user budget, and the category does not collapse.
    case rateLimited = "rate_limited"
    /// Folded into a burst; it goes out in the digest.
    case collapsed
    /// Held for the digest the user asked for instead of single notifications.
    case digestedPreference = "digested.preference"
    /// The user has no active device; the unread count still moved.
    case noDevices = "no_devices"
    case rejectedUnknownCategory = "rejected.unknown_category"
    case rejectedArchivedCategory = "rejected.archived_category"
    /// The stored event could not be read back (written by another version, or by hand); it reaches nobody. This is
    /// the event's own outcome, recorded on the event, as no recipient can be named.
    case rejectedUndecodable = "rejected.undecodable"
    /// An `item.read` event, applied to the recipient's feed: it reads items instead of telling of one.
    case read

    /// Whether the event reached the recipient, and so their feed and unread count when its category leaves feed
    /// entries and counts toward the badge (`Category.leavesFeedEntry`, `Category.countsUnread`).
    public var reachesFeed: Bool {
        switch self {
        case .suppressedPreference, .suppressedMuted, .suppressedExpired, .suppressedUnknownUser,
            .suppressedActor,
            .rejectedUnknownCategory, .rejectedArchivedCategory, .rejectedUndecodable, .read:
            return false
        case .delivered, .deferredQuietHours, .silencedQuietHours, .droppedQuietHours, .rateLimited,
            .collapsed,
            .digestedPreference, .noDevices:
            return true
        }
    }

    /// When the push of a notification with this outcome goes: `now` when it is sent, `until` when it is held (a
    /// deferral, or a digest due then), else never.
    public func deliverAt(until: Date?, now: Date) -> Date? {
        switch self {
        case .delivered, .silencedQuietHours: now
        case .deferredQuietHours, .collapsed, .digestedPreference: until
        default: nil
        }
    }
}
