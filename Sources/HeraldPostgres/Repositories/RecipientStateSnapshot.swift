import Foundation
import HeraldCore

/// Everything the decision engine needs about a batch of recipients, loaded in a few round trips.
public struct RecipientStateSnapshot: Sendable {
    /// Profiles of the users that exist (locked for the transaction when loaded by a worker).
    public var profiles: [String: UserProfile] = [:]
    /// Each user's own settings, by user then category.
    public var preferences: [String: [String: PreferenceSetting]] = [:]
    /// Mutes still running, by user.
    public var mutes: [String: [Mute]] = [:]
    /// Active devices, by user.
    public var devices: [String: [Device]] = [:]
    /// Unread counts, by user (absent: zero).
    public var unread: [String: Int] = [:]
    /// Token buckets by user then scope (a category id, or `RecipientStateRepository.allCategoriesScope`).
    public var buckets: [String: [String: TokenBucket]] = [:]
    /// Open collapse groups by user then key.
    public var groups: [String: [String: CollapseGroup]] = [:]
    /// Silent-push budgets by installation id.
    public var budgets: [String: SilentBudget] = [:]
    /// Collapse-window timers of these users that are due.
    public var dueTimers: [TimerRecord] = []
    /// The position of each user's latest notification in their feed (absent: none yet).
    public var feedPositions: [String: Int64] = [:]
    /// Unopened dismissals in a row, by user then category (absent: none).
    public var dismissalStreaks: [String: [String: Int]] = [:]

    /// An empty snapshot.
    public init() {}
}
