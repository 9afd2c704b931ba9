import Foundation
import HeraldCore
import HeraldPostgres

@testable import HeraldService

extension InMemoryDecisionStore.Tables {
    /// Applies what a batch wrote, as its closing pipeline does: queue rows, decisions, digests, the recipients'
    /// state, timers, the events' progress and the reads the batch marked. Throws, changing nothing the caller
    /// keeps, where PostgreSQL would refuse a row (a decision or a queue row written twice).
    mutating func apply(
        _ output: BatchOutput, book: RecipientBook, reads: [DecisionKey: Date], now: Date
    ) throws {
        try queue(output.deliveries)
        let stopped = Set(output.stoppedNotificationIds)
        for row in deliveries
        where ended[row.id] == nil && output.stoppedInstallationIds.contains(row.delivery.installationId) {
            if let id = row.delivery.notificationId, stopped.contains(id) {
                ended[row.id] = ReadResult.stoppedPushDetail
            }
        }
        var stored = Set(decisions.map(InMemoryDecisionStore.key(of:)))
        for decision in output.decisions {
            guard stored.insert(InMemoryDecisionStore.key(of: decision)).inserted else {
                throw InMemoryDecisionStore.Failure(description: "decision written twice: \(decision.eventSeq)")
            }
            decisions.append(decision)
        }
        for index in decisions.indices {
            if let at = reads[InMemoryDecisionStore.key(of: decisions[index])] { decisions[index].readAt = at }
        }
        digests += output.digests
        write(book.write)
        for timer in output.firedTimers { timers[Self.key(timer)] = nil }
        for timer in book.armed.values { timers[Self.key(timer)] = timer }
        for progress in output.progress { record(progress, now: now) }
    }

    /// Plain rows are added (one already queued fails the batch); of the coalescing rows the last of each key
    /// replaces the queued row of its key, keeping that row's id, or is added.
    private mutating func queue(_ rows: [DeliveryRow]) throws {
        var latest: [String: DeliveryRow] = [:]
        var order: [String] = []
        for row in rows {
            guard let key = row.delivery.coalesceKey else {
                guard !deliveries.contains(where: { $0.id == row.id }) else {
                    throw InMemoryDecisionStore.Failure(description: "queue row written twice: \(row.id)")
                }
                deliveries.append(row)
                continue
            }
            if latest.updateValue(row, forKey: key) == nil { order.append(key) }
        }
        for key in order {
            guard let row = latest[key] else { continue }
            if let index = deliveries.firstIndex(where: { $0.delivery.coalesceKey == key }) {
                deliveries[index].delivery = row.delivery
            } else if !deliveries.contains(where: { $0.id == row.id }) {
                deliveries.append(row)
            }
        }
    }

    private mutating func write(_ write: RecipientStateWrite) {
        for (userId, count) in write.unread { unread[userId] = max(0, count) }
        for (userId, position) in write.feedPositions {
            feedPositions[userId] = max(feedPositions[userId] ?? position, position)
        }
        for (key, bucket) in write.buckets { buckets[key.userId, default: [:]][key.key] = bucket }
        for (key, group) in write.groups {
            groups[key.userId, default: [:]][key.key] = group.phase == .idle ? nil : group
        }
        for (installation, owned) in write.budgets { budgets[installation] = owned }
    }

    private mutating func record(_ progress: EventProgress, now: Date) {
        guard let index = events.firstIndex(where: { $0.claim.seq == progress.seq }) else { return }
        events[index].decided = progress.done
        events[index].decidedAt = progress.done ? now : nil
        events[index].claim.fanoutAfter = progress.done ? nil : progress.fanoutAfter
        events[index].claim.recipientsDecided += progress.recipients
        events[index].outcome = progress.outcome ?? events[index].outcome
    }

    private static func key(_ timer: TimerRecord) -> RecipientStateWrite.Key {
        RecipientStateWrite.Key(userId: timer.userId, key: timer.key)
    }
}
