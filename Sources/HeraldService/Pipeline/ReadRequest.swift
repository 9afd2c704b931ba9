/// A user read items or a thread, on one of their devices.
struct ReadRequest: Sendable, Hashable {
    var userId: String
    var itemIds: [String]
    var threadId: String?
    /// The installation the read happened on; it is not sent a withdrawal.
    var device: String?
    /// Notifications read by their id (an app's `opened` receipt for a notification that names no item).
    var notificationIds: [String] = []
}
