import Foundation
import HeraldCore
import HeraldPostgres

extension BatchProcessor {
    /// Decides one event for its recipients of this batch, in order, carrying state from one to the next.
    func decide(
        _ item: Work, categories: [String: HeraldCore.Category], book: inout RecipientBook, output: inout BatchOutput,
        on connection: PostgresConnection, now: Date
    ) throws {
        output.progress.append(item.progress)
        guard let stored = item.stored else { return }
        if stored.category == EventRepository.readCategory {
            for userId in item.recipients {
                try read(
                    stored, seq: item.claim.seq, userId: userId, book: &book, output: &output, on: connection, now: now)
            }
            return
        }
        let event = stored.engineEvent
        let category = stored.effectiveCategory(categories[stored.category])
        for userId in item.recipients {
            let states = book.state(of: userId, category: stored.category).map { [userId: $0] } ?? [:]
            let result = decider.decide(
                event: event, category: category, recipients: [userId], states: states, now: now)
            book.apply(result.changes, userId: userId, category: stored.category)
            guard let decision = result.decisions.first else { continue }
            let own = result.deliveries.filter { $0.notificationId == decision.notificationId }
            let ids = output.queue(own, eventSource: stored.source, eventId: stored.id)
            recordDigests(
                result.caughtUpDigests, deliveries: result.deliveries, userId: userId, category: stored.category,
                output: &output, now: now)
            output.decisions.append(
                DecisionRecord(
                    eventSeq: item.claim.seq, userId: userId, outcome: decision.outcome.rawValue,
                    detail: decision.detail, deliverAt: Self.deliverAt(decision, now: now),
                    notificationId: decision.notificationId, collapseId: decision.collapseId, badge: decision.badge,
                    deliveryIds: ids, itemId: stored.itemId, threadId: stored.threadId,
                    countsUnread: decision.notificationId != nil && (category?.countsTowardBadge ?? false),
                    decidedAt: now, feedPosition: decision.notificationId == nil ? nil : decision.feedPosition))
        }
    }

    /// When the push goes: now for sent ones, the deferral or digest time for held ones, else nothing.
    static func deliverAt(_ decision: Decision, now: Date) -> Date? {
        switch decision.outcome {
        case .delivered, .silencedQuietHours: now
        case .deferredQuietHours, .collapsed, .digestedPreference: decision.until
        default: nil
        }
    }

    /// A digest an event caught up (its window had closed before the timer fired): recorded like a timer's
    /// digest, with the number of events it summarises.
    private func recordDigests(
        _ digests: [String: DigestSummary], deliveries: [Delivery], userId: String, category: String,
        output: inout BatchOutput, now: Date
    ) {
        for (notificationId, summary) in digests.sorted(by: { $0.key < $1.key }) {
            let rows = deliveries.filter { $0.notificationId == notificationId }
            let ids = output.queue(rows, eventSource: nil, eventId: nil)
            let availableAt = rows.map(\.availableAt).min() ?? now
            let outcome: Outcome =
                rows.isEmpty ? .noDevices : availableAt > now ? .deferredQuietHours : .delivered
            output.digests.append(
                DecisionDigestRecord(
                    notificationId: notificationId, userId: userId, collapseKey: summary.key, categoryId: category,
                    outcome: outcome.rawValue, detail: "caught_up", deliverAt: rows.isEmpty ? nil : availableAt,
                    eventCount: summary.count, folded: summary.folded, deliveryIds: ids, decidedAt: now))
        }
    }

    /// An `item.read` event: the same as `POST /v1/users/{id}/read` for each recipient.
    private func read(
        _ stored: StoredEvent, seq: Int64, userId: String, book: inout RecipientBook, output: inout BatchOutput,
        on connection: PostgresConnection, now: Date
    ) throws {
        var record = DecisionRecord(
            eventSeq: seq, userId: userId, outcome: "read", detail: nil, deliverAt: nil, notificationId: nil,
            collapseId: nil, badge: nil, deliveryIds: [], itemId: stored.itemId, threadId: stored.threadId,
            countsUnread: false, decidedAt: now)
        guard book.knows(userId) else {
            record.outcome = Outcome.suppressedUnknownUser.rawValue
            output.decisions.append(record)
            return
        }
        let request = ReadRequest(
            userId: userId, itemIds: stored.readItemIds, threadId: stored.threadId, device: stored.readingDevice)
        let outcome = try ReadApplication.apply(
            request, decider: decider, book: &book, output: &output, on: connection, now: now,
            eventSource: stored.source, eventId: stored.id)
        record.detail = "items_read=\(outcome.itemsRead)"
        record.badge = outcome.badge
        record.deliveryIds = outcome.deliveryIds
        output.decisions.append(record)
    }
}
