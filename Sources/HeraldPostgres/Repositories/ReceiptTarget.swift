/// A notification a receipt named, as found among the user's own notifications.
public struct ReceiptTarget: Sendable, Hashable {
    public var notificationId: String
    public var itemId: String?
    public var categoryId: String
}
