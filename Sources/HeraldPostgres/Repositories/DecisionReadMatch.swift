/// A notification a read just marked read.
public struct DecisionReadMatch: Sendable, Hashable {
    public var notificationId: String
    public var collapseId: String?
    /// Whether it had raised the unread count (so the read lowers it).
    public var countsUnread: Bool

    /// Creates a match.
    public init(notificationId: String, collapseId: String?, countsUnread: Bool) {
        self.notificationId = notificationId
        self.collapseId = collapseId
        self.countsUnread = countsUnread
    }
}
