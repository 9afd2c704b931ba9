import Foundation

/// One of the user's decisions a read may cover, as the shell found it: stored, or decided earlier in the same
/// batch. `key` is the shell's handle on where it came from, so it can mark the covered ones read.
public struct ReadCandidate<Key: Hashable & Sendable>: Sendable, Hashable {
    public var key: Key
    /// `nil` for a decision that made no notification (suppressed, say); a read covers none of those.
    public var notificationId: String?
    public var itemId: String?
    public var threadId: String?
    public var collapseId: String?
    /// Whether it raised the unread count (so reading it lowers the count).
    public var countsUnread: Bool
    /// Whether an earlier read covered it already; a read covers a notification once.
    public var isRead: Bool
    /// The category of its event and when it was decided: a burst still open counts the reads of its own
    /// notifications by them (`CollapseGroup.notificationsRead`). `nil` where the shell does not know them.
    public var categoryId: String?
    public var decidedAt: Date?

    /// Creates a candidate.
    public init(
        key: Key, notificationId: String?, itemId: String?, threadId: String?, collapseId: String?,
        countsUnread: Bool, isRead: Bool, categoryId: String? = nil, decidedAt: Date? = nil
    ) {
        self.key = key
        self.notificationId = notificationId
        self.itemId = itemId
        self.threadId = threadId
        self.collapseId = collapseId
        self.countsUnread = countsUnread
        self.isRead = isRead
        self.categoryId = categoryId
        self.decidedAt = decidedAt
    }

    /// The same candidate under another key, for a shell that gathers candidates from several places.
    public func withKey<Other: Hashable & Sendable>(_ key: Other) -> ReadCandidate<Other> {
        ReadCandidate<Other>(
            key: key, notificationId: notificationId, itemId: itemId, threadId: threadId, collapseId: collapseId,
            countsUnread: countsUnread, isRead: isRead, categoryId: categoryId, decidedAt: decidedAt)
    }
}
