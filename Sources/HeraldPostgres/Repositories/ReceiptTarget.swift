import HeraldCore

/// A notification a receipt named, as found among the user's own notifications and digests.
public struct ReceiptTarget: Sendable, Hashable {
    public var notificationId: String
    public var categoryId: String
    /// What an open of it reads: the notification itself, or for a digest the notifications of the burst it
    /// summarises (none for a digest stored before digests named their burst).
    public var opens: [OpenedNotification]

}
