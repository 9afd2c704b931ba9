import Foundation
import HeraldCore
import HeraldPostgres

/// The recipients' state during one batch: loaded once, then carried from event to event in memory (two events
/// for one user in the same batch see each other's effects), and collected for writing back.
struct RecipientBook {
    private(set) var snapshot: RecipientStateSnapshot
    private(set) var write = RecipientStateWrite()
    /// Timers to arm, by (user, key); the latest wins.
    private(set) var armed: [RecipientStateWrite.Key: TimerRecord] = [:]

    init(_ snapshot: RecipientStateSnapshot) {
        self.snapshot = snapshot
    }

    /// Whether the user exists.
    func knows(_ userId: String) -> Bool { snapshot.profiles[userId] != nil }

    /// The engine's view of `userId` for an event of `categoryId`; `nil` for an unknown user.
    func state(of userId: String, category categoryId: String) -> RecipientState? {
        guard let profile = snapshot.profiles[userId] else { return nil }
        let devices = snapshot.devices[userId] ?? []
        var budgets: [String: SilentBudget] = [:]
        if !snapshot.budgets.isEmpty {
            for device in devices {
                if let budget = snapshot.budgets[device.installationId] { budgets[device.installationId] = budget }
            }
        }
        let buckets = snapshot.buckets[userId]
        var state = RecipientState(
            profile: profile, preference: snapshot.preferences[userId]?[categoryId],
            mutes: snapshot.mutes[userId] ?? [], devices: devices, unreadCount: snapshot.unread[userId] ?? 0,
            categoryBucket: buckets?[categoryId],
            userBucket: buckets?[RecipientStateRepository.allCategoriesScope],
            collapseGroups: snapshot.groups[userId] ?? [:], silentBudgets: budgets)
        state.feedPosition = snapshot.feedPositions[userId] ?? 0
        state.dismissalStreak = snapshot.dismissalStreaks[userId]?[categoryId] ?? 0
        return state
    }

    /// Records what one decision changed for `userId` (an event of `categoryId`).
    mutating func apply(_ changes: StateChanges, userId: String, category categoryId: String) {
        for (user, count) in changes.unreadCounts { setUnread(count, for: user) }
        for (user, position) in changes.feedPositions {
            snapshot.feedPositions[user] = position
            write.feedPositions[user] = position
        }
        for (user, bucket) in changes.categoryBuckets { setBucket(bucket, user: user, scope: categoryId) }
        for (user, bucket) in changes.userBuckets {
            setBucket(bucket, user: user, scope: RecipientStateRepository.allCategoriesScope)
        }
        for group in changes.collapseGroups { setGroup(group) }
        for timer in changes.digestTimers { arm(timer) }
        for (installation, budget) in changes.silentBudgets {
            setBudget(budget, installation: installation, user: userId)
        }
    }

    mutating func setUnread(_ count: Int, for userId: String) {
        snapshot.unread[userId] = max(0, count)
        write.unread[userId] = max(0, count)
    }

    mutating func setBucket(_ bucket: TokenBucket, user: String, scope: String) {
        snapshot.buckets[user, default: [:]][scope] = bucket
        write.buckets[RecipientStateWrite.Key(userId: user, key: scope)] = bucket
    }

    mutating func setGroup(_ group: CollapseGroup) {
        snapshot.groups[group.userId, default: [:]][group.key] = group
        write.groups[RecipientStateWrite.Key(userId: group.userId, key: group.key)] = group
    }

    mutating func setBudget(_ budget: SilentBudget, installation: String, user: String) {
        snapshot.budgets[installation] = budget
        write.budgets[installation] = (user, budget)
    }

    mutating func arm(_ timer: StateChanges.DigestTimer) {
        armed[RecipientStateWrite.Key(userId: timer.userId, key: timer.key)] = TimerRecord(
            userId: timer.userId, key: timer.key, categoryId: timer.categoryId, dueAt: timer.at)
    }

    /// The group `key` of `userId`, idle when there is none.
    func group(of userId: String, key: String) -> CollapseGroup {
        snapshot.groups[userId]?[key] ?? CollapseGroup(userId: userId, key: key)
    }

    /// Forgets a fired timer that was armed earlier in this batch (it fired already).
    mutating func disarm(userId: String, key: String) {
        armed[RecipientStateWrite.Key(userId: userId, key: key)] = nil
    }
}
