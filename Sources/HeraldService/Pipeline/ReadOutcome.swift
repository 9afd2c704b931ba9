/// What a read did.
struct ReadOutcome: Sendable, Hashable {
    /// Unread notifications this read covered that had raised the count.
    var itemsRead: Int
    var unreadCount: Int
    /// The badge sent to the other devices (`nil` when the user turned the badge off).
    var badge: Int?
    /// Collapse ids withdrawn from the other devices.
    var withdrawn: [String]
    var deliveryIds: [String]
}
