import Foundation

/// The one recorded outcome for one recipient of one event: what happened and why, in machine-readable form.
public struct Decision: Sendable, Hashable, Codable {
    public var eventId: String
    public var userId: String
    public var outcome: Outcome
    /// A qualifier of the outcome, e.g. the preference source or the mute scope.
    public var detail: String?
    /// For deferrals: when the push goes; for collapsed events: when the digest is due.
    public var until: Date?
    public var notificationId: String?
    /// The id the platforms replace and withdraw the notification by.
    public var collapseId: String?
    /// The unread count after this event, as sent in the payloads.
    public var badge: Int?
    /// How many deliveries were queued for this recipient.
    public var deliveries: Int
    /// The notification's position in the user's feed; nil when the decision made no notification.
    public var feedPosition: Int64? = nil
    /// Whether the notification counts in the user's unread count (it reached the feed, in a category that counts
    /// toward the badge).
    public var countsUnread = false
    /// When its push goes (`Outcome.deliverAt`); nil when none will.
    public var deliverAt: Date? = nil
    /// The thread the event belongs to (`Decider.threadKey`): the one its pushes are grouped by, its thread mutes
    /// match and a read of that thread covers.
    public var threadId: String? = nil

    /// Creates a decision.
    public init(
        eventId: String, userId: String, outcome: Outcome, detail: String? = nil, until: Date? = nil,
        notificationId: String? = nil, collapseId: String? = nil, badge: Int? = nil, deliveries: Int = 0
    ) {
        self.eventId = eventId
        self.userId = userId
        self.outcome = outcome
        self.detail = detail
        self.until = until
        self.notificationId = notificationId
        self.collapseId = collapseId
        self.badge = badge
        self.deliveries = deliveries
    }

    enum CodingKeys: String, CodingKey {
        case outcome, detail, until, badge, deliveries
        case eventId = "event_id"
        case userId = "user_id"
        case notificationId = "notification_id"
        case collapseId = "collapse_id"
    }
}
