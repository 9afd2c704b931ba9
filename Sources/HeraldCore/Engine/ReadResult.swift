import Foundation

/// What a read produced: the new unread count, the withdrawals and badge pushes, the spent silent budgets.
public struct ReadResult: Sendable, Hashable {
    public var unreadCount: Int
    public var deliveries: [Delivery]
    /// Budgets to upsert, by installation id.
    public var silentBudgets: [String: SilentBudget]
    /// The notifications the read covered: their pushes still waiting in the queue (held for the end of quiet
    /// hours, say) are not sent any more, on any device; they end as expired with `stoppedPushDetail`.
    public var stoppedNotificationIds: [String] = []
    /// Bursts still open that now count some of their notifications read, to store: their digest counts only the
    /// unread ones, and a burst read whole sends none.
    public var collapseGroups: [CollapseGroup] = []

    /// Why a push ended unsent because its notification was read.
    public static let stoppedPushDetail = "read before it was sent"
}
