import Foundation
import HeraldCore
import HeraldPostgres

extension BatchProcessor {
    /// Closes the collapse windows whose timers are due: each group goes through the engine's `windowClosed`
    /// under its user's lock, so a window produces at most one digest whoever fires it.
    func fireTimers(
        _ timers: [TimerRecord], categories: [String: HeraldCore.Category], book: inout RecipientBook,
        output: inout BatchOutput, now: Date
    ) {
        for timer in timers {
            output.firedTimers.append(timer)
            book.disarm(userId: timer.userId, key: timer.key)
            let group = book.group(of: timer.userId, key: timer.key)
            let result = decider.windowClosed(
                group: group, category: categories[timer.categoryId],
                state: book.state(of: timer.userId, category: timer.categoryId), now: now)
            book.setGroup(result.group)
            for armed in result.digestTimers { book.arm(armed) }
            guard let outcome = result.outcome, let notificationId = result.notificationId else { continue }
            output.digests.append(
                DecisionDigestRecord(
                    notificationId: notificationId, userId: timer.userId, collapseKey: timer.key,
                    categoryId: timer.categoryId, outcome: outcome.rawValue, detail: result.detail,
                    deliverAt: result.deliverAt, eventCount: result.summary?.count, folded: result.summary?.folded,
                    deliveryIds: output.queue(result.deliveries, eventSource: nil, eventId: nil), decidedAt: now,
                    collapseId: result.summary?.collapseId, burst: result.summary?.membership))
        }
    }
}
