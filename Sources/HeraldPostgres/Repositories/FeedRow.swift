import Foundation
import HeraldCore

/// One notification of a user's feed as stored: its position, ids, read state and the event it came from.
public struct FeedRow: Sendable, Hashable {
    /// The position in the user's feed.
    public var position: Int64
    public var notificationId: String
    public var itemId: String?
    public var threadId: String?
    public var categoryId: String
    /// When the notification was decided.
    public var createdAt: Date
    /// When the user read it, if they did.
    public var readAt: Date?
    /// The event's stored canonical JSON, rendered into text by the service.
    public var eventDocument: String
}
