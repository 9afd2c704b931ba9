import Foundation

/// A user read something: the notifications to withdraw from their other devices, and how far the count drops.
public struct ReadNotice: Sendable, Hashable, Codable {
    public var userId: String
    /// Collapse ids to withdraw: of the notifications that are now read, and of no unread one
    /// (`ReadScope.select` finds them).
    public var collapseIds: [String]
    /// How many unread items were read; the unread count never goes below zero.
    public var itemsRead: Int
    /// The device the read happened on; it already knows, so it gets nothing.
    public var originInstallationId: String?
    /// The notifications that are now read, each once.
    public var notificationIds: [String]
    /// The notifications now read that have a collapse id, for the bursts still open to count
    /// (`CollapseGroup.notificationsRead`). Not encoded: a notice is decided as soon as it is made.
    public var collapsed: [CollapsedRead] = []

    /// A notification now read, as a burst knows its own.
    public typealias CollapsedRead = BurstNotification

    /// Creates a read notice.
    public init(
        userId: String, collapseIds: [String], itemsRead: Int, originInstallationId: String? = nil,
        notificationIds: [String] = []
    ) {
        self.userId = userId
        self.collapseIds = collapseIds
        self.itemsRead = itemsRead
        self.originInstallationId = originInstallationId
        self.notificationIds = notificationIds
    }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case collapseIds = "collapse_ids"
        case itemsRead = "items_read"
        case originInstallationId = "origin_installation_id"
        case notificationIds = "notification_ids"
    }
}
