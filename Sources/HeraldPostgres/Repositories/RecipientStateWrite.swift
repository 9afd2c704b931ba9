import Foundation
import HeraldCore

/// The per-recipient state a batch changed, to be written in the batch's transaction.
public struct RecipientStateWrite: Sendable {
    /// A (user, key) pair: a bucket scope or a collapse key.
    public struct Key: Sendable, Hashable {
        public var userId: String
        public var key: String

        /// Creates a key.
        public init(userId: String, key: String) {
            self.userId = userId
            self.key = key
        }
    }

    /// New unread counts by user.
    public var unread: [String: Int] = [:]
    /// Token buckets by (user, scope).
    public var buckets: [Key: TokenBucket] = [:]
    /// Collapse groups by (user, key); idle ones are deleted.
    public var groups: [Key: CollapseGroup] = [:]
    /// Silent budgets by installation id, with their owner.
    public var budgets: [String: (userId: String, budget: SilentBudget)] = [:]
    /// The last feed position given, by user.
    public var feedPositions: [String: Int64] = [:]

    /// Nothing to write.
    public init() {}

    /// Whether there is nothing to write.
    public var isEmpty: Bool {
        unread.isEmpty && buckets.isEmpty && groups.isEmpty && budgets.isEmpty && feedPositions.isEmpty
    }
}
