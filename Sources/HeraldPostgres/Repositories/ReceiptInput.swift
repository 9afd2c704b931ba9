import Foundation

/// One receipt as the app reports it.
public struct ReceiptInput: Sendable, Hashable {
    public var notificationId: String
    public var device: String
    /// `displayed`, `opened` or `dismissed`.
    public var event: String
    public var at: Date

    /// Creates a receipt.
    public init(notificationId: String, device: String, event: String, at: Date) {
        self.notificationId = notificationId
        self.device = device
        self.event = event
        self.at = at
    }
}
