import Foundation

/// A user's count of unread notifications, the number the app badge shows. Each notification that reaches the feed
/// and counts as unread (`Category.countsUnread`) raises it by one; reading notifications and retention dropping a
/// day of them lower it. It never goes below zero, whatever a lowering claims.
public enum UnreadCount {
    /// The count once one more notification counts as unread.
    public static func raised(_ count: Int) -> Int {
        max(0, count) + 1
    }

    /// The count once `gone` notifications stop counting: read by the user, or dropped with their day.
    public static func lowered(_ count: Int, by gone: Int) -> Int {
        max(0, count - max(0, gone))
    }

    /// How much earlier than a user's creation a notification of theirs may be stamped: the instances' clocks,
    /// which stamp both, may disagree by this much. A notification decided before that belongs to an earlier user
    /// of the same id, deleted since, and retention does not lower the new user's count for it.
    public static let clockAllowance: TimeInterval = 60
}
