import Foundation
import HeraldCore

/// One receipt as the app reports it.
public struct ReceiptInput: Sendable, Hashable {
    public var notificationId: String
    public var device: String
    public var event: ReceiptKind
    public var at: Date

    /// Creates a receipt.
    public init(notificationId: String, device: String, event: ReceiptKind, at: Date) {
        self.notificationId = notificationId
        self.device = device
        self.event = event
        self.at = at
    }
}
