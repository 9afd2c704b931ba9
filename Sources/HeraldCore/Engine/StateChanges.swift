import Foundation

/// The state the shell must write back, in the same transaction as the decisions and deliveries.
public struct StateChanges: Sendable, Hashable {
    /// A close timer for a collapse group: call `Decider.windowClosed` for (user, key) at `at`.
    public struct DigestTimer: Sendable, Hashable, Codable {
        public var userId: String
        public var key: String
        public var categoryId: String
        public var at: Date

        enum CodingKeys: String, CodingKey {
            case key, at
            case userId = "user_id"
            case categoryId = "category_id"
        }
    }

    /// New per-user-per-category buckets, by user id (the category is the event's).
    public var categoryBuckets: [String: TokenBucket] = [:]
    /// New per-user buckets, by user id.
    public var userBuckets: [String: TokenBucket] = [:]
    /// Collapse groups to upsert by (user, key); an `idle` group may be deleted instead.
    public var collapseGroups: [CollapseGroup] = []
    public var digestTimers: [DigestTimer] = []
    /// New absolute unread counts, by user id.
    public var unreadCounts: [String: Int] = [:]
    /// Silent budgets to upsert, by installation id.
    public var silentBudgets: [String: SilentBudget] = [:]
    /// New feed positions (the latest notification's), by user id.
    public var feedPositions: [String: Int64] = [:]

    /// No changes.
    public init() {}
}
