import Foundation
import HeraldCore
import HeraldPostgres

extension BatchProcessor {
    /// Decides one event for its recipients of this batch, in order, carrying state from one to the next.
    func decide(
        _ item: Work, categories: [String: HeraldCore.Category], book: inout RecipientBook, output: inout BatchOutput,
        store: some DecisionStore, now: Date
    ) throws {
        output.progress.append(item.progress)
        guard let event = item.event else { return }
        if ReadEvent.isRead(event) {
            for userId in item.recipients {
                try read(
                    event, seq: item.claim.seq, userId: userId, book: &book, output: &output, store: store, now: now)
            }
            return
        }
        let category = categories[event.category]
        for userId in item.recipients {
            let states = book.state(of: userId, category: event.category).map { [userId: $0] } ?? [:]
            let result = decider.decide(
                event: event, category: category, recipients: [userId], states: states, now: now)
            book.apply(result.changes, userId: userId, category: event.category)
            guard let decision = result.decisions.first else { continue }
            let ids = output.queue(
                result.deliveries, of: decision.notificationId, eventSource: event.source, eventId: event.id)
            for digest in result.caughtUpDigests {
                output.digests.append(
                    DecisionDigestRecord(
                        notificationId: digest.notificationId, userId: userId, collapseKey: digest.summary.key,
                        categoryId: event.category, outcome: digest.outcome.rawValue, detail: "caught_up",
                        deliverAt: digest.deliverAt, eventCount: digest.summary.count, folded: digest.summary.folded,
                        deliveryIds: output.queue(
                            result.deliveries, of: digest.notificationId, eventSource: nil, eventId: nil),
                        decidedAt: now,
                        collapseId: digest.summary.collapseId, burst: digest.summary.membership))
            }
            output.decisions.append(
                DecisionRecord(
                    eventSeq: item.claim.seq, userId: userId, outcome: decision.outcome.rawValue,
                    detail: decision.detail, deliverAt: decision.deliverAt, notificationId: decision.notificationId,
                    collapseId: decision.collapseId, badge: decision.badge, deliveryIds: ids, itemId: event.itemId,
                    threadId: decision.threadId, countsUnread: decision.countsUnread, decidedAt: now,
                    feedPosition: decision.feedPosition, categoryId: event.category))
        }
    }

    /// An `item.read` event: the same as `POST /v1/users/{id}/read` for each recipient.
    private func read(
        _ event: HeraldCore.Event, seq: Int64, userId: String, book: inout RecipientBook, output: inout BatchOutput,
        store: some DecisionStore, now: Date
    ) throws {
        var outcome: ReadOutcome?
        if book.knows(userId) {
            outcome = try ReadApplication.apply(
                ReadEvent.scope(event, userId: userId), decider: decider, book: &book, output: &output, store: store,
                now: now, eventSource: event.source, eventId: event.id)
        }
        let decision = ReadEvent.decision(userExists: outcome != nil, itemsRead: outcome?.itemsRead ?? 0)
        output.decisions.append(
            DecisionRecord(
                eventSeq: seq, userId: userId, outcome: decision.outcome.rawValue, detail: decision.detail,
                deliverAt: nil, notificationId: nil, collapseId: nil, badge: outcome?.badge,
                deliveryIds: outcome?.deliveryIds ?? [], itemId: event.itemId, threadId: event.threadId,
                countsUnread: false, decidedAt: now))
    }
}
