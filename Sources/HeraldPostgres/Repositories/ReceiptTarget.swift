/// A notification a receipt named, as found among the user's own notifications and digests.
public struct ReceiptTarget: Sendable, Hashable {
    public var notificationId: String
    public var categoryId: String
    /// What an open of it reads: the notification itself, or for a digest the notifications of the burst it
    /// summarises (none for a digest stored before digests named their burst).
    public var opens: [Opened]

    /// One notification an open reads: by its item when it names one (every notification of the item is read),
    /// else by its own id.
    public struct Opened: Sendable, Hashable {
        public var notificationId: String
        public var itemId: String?
    }
}
