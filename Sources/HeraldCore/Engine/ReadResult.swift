/// What a read produced: the new unread count, the withdrawals and badge pushes, the spent silent budgets.
public struct ReadResult: Sendable, Hashable {
    public var unreadCount: Int
    public var deliveries: [Delivery]
    /// Budgets to upsert, by installation id.
    public var silentBudgets: [String: SilentBudget]
}
