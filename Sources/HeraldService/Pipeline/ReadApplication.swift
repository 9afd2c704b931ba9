import Foundation
import HeraldCore
import HeraldPostgres

/// Applies a read inside a transaction that holds the user's lock: marks the notifications read (once), lowers
/// the unread count by the ones that had raised it, queues withdrawals plus the new badge to the user's other
/// devices within their silent budgets, and ends the read notifications' pushes that are still queued.
enum ReadApplication {
    /// Where a candidate lives: decided earlier in this batch (an index into `output.decisions`), or stored.
    enum Target: Hashable, Sendable {
        case batch(Int)
        case stored(DecisionKey)
    }

    static func apply(
        _ scope: ReadScope, decider: Decider, book: inout RecipientBook, output: inout BatchOutput,
        store: some DecisionStore, now: Date, eventSource: String?, eventId: String?
    ) throws -> ReadOutcome {
        // Notifications decided earlier in the same batch are not in the table yet; they are candidates all the
        // same, after the stored ones, which are older. The stored ones sharing their collapse ids come along.
        let batch = output.decisions.indices.filter { output.decisions[$0].userId == scope.userId }.map { index in
            candidate(output.decisions[index], key: Target.batch(index))
        }
        let batchCollapseIds = Set(batch.filter { !$0.isRead }.compactMap(\.collapseId)).sorted()
        let stored = try store.readCandidates(for: scope, sharing: batchCollapseIds)
        let selection = scope.select(stored.map { $0.withKey(Target.stored($0.key)) } + batch)
        var keys: [DecisionKey] = []
        for candidate in selection.covered {
            switch candidate.key {
            case .batch(let index): output.decisions[index].readAt = now
            case .stored(let key): keys.append(key)
            }
        }
        try store.markRead(keys, at: now)

        let unread = book.snapshot.unread[scope.userId] ?? 0
        let profile = book.snapshot.profiles[scope.userId]
        guard let notice = selection.notice,
            let state = book.state(of: scope.userId, category: ReadEvent.categoryId)
        else {
            return ReadOutcome(
                itemsRead: 0, unreadCount: unread, badge: profile?.appBadge(unread: unread), withdrawn: [],
                deliveryIds: [])
        }
        let result = decider.read(notice, state: state, now: now)
        book.setUnread(result.unreadCount, for: scope.userId)
        for (installation, budget) in result.silentBudgets {
            book.setBudget(budget, installation: installation, user: scope.userId)
        }
        for group in result.collapseGroups { book.setGroup(group) }
        let ids = output.queue(result.deliveries, eventSource: eventSource, eventId: eventId)
        output.stopPushes(
            of: result.stoppedNotificationIds, to: state.activeDevices.map(\.installationId))
        return ReadOutcome(
            itemsRead: notice.itemsRead, unreadCount: result.unreadCount,
            badge: profile?.appBadge(unread: result.unreadCount), withdrawn: notice.collapseIds, deliveryIds: ids)
    }

    /// A decision of this batch as a candidate for the read.
    private static func candidate(_ decision: DecisionRecord, key: Target) -> ReadCandidate<Target> {
        ReadCandidate(
            key: key, notificationId: decision.notificationId, itemId: decision.itemId, threadId: decision.threadId,
            collapseId: decision.collapseId, countsUnread: decision.countsUnread, isRead: decision.readAt != nil,
            categoryId: decision.categoryId, decidedAt: decision.decidedAt)
    }
}
