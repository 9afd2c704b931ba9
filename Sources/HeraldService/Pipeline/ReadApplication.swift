import Foundation
import HeraldCore
import HeraldPostgres

/// Applies a read inside a transaction that holds the user's lock: marks the notifications read (once), lowers
/// the unread count by the ones that had raised it, and queues withdrawals plus the new badge to the user's other
/// devices within their silent budgets.
enum ReadApplication {
    static func apply(
        _ request: ReadRequest, decider: Decider, book: inout RecipientBook, output: inout BatchOutput,
        on connection: PostgresConnection, now: Date, eventSource: String?, eventId: String?
    ) throws -> ReadOutcome {
        var matches = try DecisionRepository.markRead(
            userId: request.userId, itemIds: request.itemIds, threadId: request.threadId,
            notificationIds: request.notificationIds, at: now, on: connection)
        // Notifications decided earlier in the same batch are not in the table yet.
        for index in output.decisions.indices {
            let decision = output.decisions[index]
            guard decision.userId == request.userId, decision.readAt == nil,
                let notificationId = decision.notificationId
            else { continue }
            let byItem = decision.itemId.map { request.itemIds.contains($0) } ?? false
            let byThread = request.threadId != nil && decision.threadId == request.threadId
            let byId = request.notificationIds.contains(notificationId)
            guard byItem || byThread || byId else { continue }
            output.decisions[index].readAt = now
            matches.append(
                DecisionReadMatch(
                    notificationId: notificationId, collapseId: decision.collapseId,
                    countsUnread: decision.countsUnread))
        }
        let unread = book.snapshot.unread[request.userId] ?? 0
        let badgeOn = book.snapshot.profiles[request.userId]?.badge ?? false
        guard !matches.isEmpty, let state = book.state(of: request.userId, category: EventRepository.readCategory)
        else {
            return ReadOutcome(
                itemsRead: 0, unreadCount: unread, badge: badgeOn ? unread : nil, withdrawn: [], deliveryIds: [])
        }
        var collapseIds: [String] = []
        for id in matches.compactMap(\.collapseId) where !collapseIds.contains(id) { collapseIds.append(id) }
        let itemsRead = matches.filter(\.countsUnread).count
        let notice = ReadNotice(
            userId: request.userId, collapseIds: collapseIds, itemsRead: itemsRead,
            originInstallationId: request.device)
        let result = decider.read(notice, state: state, now: now)
        book.setUnread(result.unreadCount, for: request.userId)
        for (installation, budget) in result.silentBudgets {
            book.setBudget(budget, installation: installation, user: request.userId)
        }
        let ids = output.queue(result.deliveries, eventSource: eventSource, eventId: eventId)
        return ReadOutcome(
            itemsRead: itemsRead, unreadCount: result.unreadCount, badge: badgeOn ? result.unreadCount : nil,
            withdrawn: collapseIds, deliveryIds: ids)
    }
}
