import Foundation

/// One recipient's recorded decision for one event.
public struct DecisionRecord: Sendable, Hashable {
    public var eventSeq: Int64
    public var userId: String
    /// The outcome code, e.g. `suppressed.preference`.
    public var outcome: String
    public var detail: String?
    /// When the push goes (now, the end of quiet hours, or the digest time).
    public var deliverAt: Date?
    public var notificationId: String?
    public var collapseId: String?
    public var badge: Int?
    public var deliveryIds: [String]
    public var itemId: String?
    public var threadId: String?
    /// Whether it raised the unread count.
    public var countsUnread: Bool
    public var decidedAt: Date
    /// Set when a read in the same batch already covered it.
    public var readAt: Date?
    /// The notification's position in the user's feed; nil for a decision that made no notification.
    public var feedPosition: Int64?
    /// The event's category, for a read later in the same batch (an open burst counts its reads by it); the
    /// decisions table has it through the event.
    public var categoryId: String?

    /// Creates a record.
    public init(
        eventSeq: Int64, userId: String, outcome: String, detail: String?, deliverAt: Date?, notificationId: String?,
        collapseId: String?, badge: Int?, deliveryIds: [String], itemId: String?, threadId: String?,
        countsUnread: Bool, decidedAt: Date, readAt: Date? = nil, feedPosition: Int64? = nil,
        categoryId: String? = nil
    ) {
        self.eventSeq = eventSeq
        self.userId = userId
        self.outcome = outcome
        self.detail = detail
        self.deliverAt = deliverAt
        self.notificationId = notificationId
        self.collapseId = collapseId
        self.badge = badge
        self.deliveryIds = deliveryIds
        self.itemId = itemId
        self.threadId = threadId
        self.countsUnread = countsUnread
        self.decidedAt = decidedAt
        self.readAt = readAt
        self.feedPosition = feedPosition
        self.categoryId = categoryId
    }
}
