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
            guard let outcome = result.outcome else { continue }
            let ids = output.queue(result.deliveries, eventSource: nil, eventId: nil)
            let summary = result.summary
            let notificationId =
                result.notificationId
                ?? NotificationIdentity.digestId(
                    userId: timer.userId, key: timer.key,
                    lastEventId: summary?.latestItems.last?.eventId ?? timer.key)
            output.digests.append(
                DecisionDigestRecord(
                    notificationId: notificationId, userId: timer.userId, collapseKey: timer.key,
                    categoryId: timer.categoryId, outcome: outcome.rawValue, detail: result.detail,
                    deliverAt: Self.digestDeliverAt(outcome, until: result.until, now: now),
                    eventCount: summary?.count, folded: summary?.folded, deliveryIds: ids, decidedAt: now))
        }
    }

    static func digestDeliverAt(_ outcome: Outcome, until: Date?, now: Date) -> Date? {
        switch outcome {
        case .delivered, .silencedQuietHours: now
        case .deferredQuietHours: until
        default: nil
        }
    }
}
