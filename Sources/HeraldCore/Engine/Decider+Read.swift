import Foundation

/// Withdrawal on read: the other devices remove the notifications and show the new badge.
extension Decider {
    /// Handles a read at `now`: lowers the unread count, queues a withdrawal (background, priority 5) to every
    /// other active device within its silent budget, coalescing the excess into the next allowed push, and, for
    /// APNs, a badge-only push the system applies even when the app gets no wake. A read notification's pushes that
    /// have not gone out yet are stopped: the user has seen it, so an alert later would only bring back a badge.
    public func read(_ notice: ReadNotice, state: RecipientState, now: Date) -> ReadResult {
        let unread = UnreadCount.lowered(state.unreadCount, by: notice.itemsRead)
        let badge = state.profile.appBadge(unread: unread)
        var result = ReadResult(unreadCount: unread, deliveries: [], silentBudgets: [:])
        result.stoppedNotificationIds = notice.notificationIds
        for var group in state.collapseGroups.values.sorted(by: { $0.key < $1.key })
        where group.notificationsRead(notice.collapsed) {
            result.collapseGroups.append(group)
        }
        let expiry = TimeInterval(config.backgroundTTLSeconds)
        for device in state.activeDevices where device.installationId != notice.originInstallationId {
            var budget =
                state.silentBudgets[device.installationId]?.adjusted(perHour: config.silentPushesPerHour)
                ?? SilentBudget(
                    installationId: device.installationId, perHour: config.silentPushesPerHour, at: now)
            let action = budget.backgroundPushRequested(collapseIds: notice.collapseIds, at: now)
            result.silentBudgets[device.installationId] = budget
            var availableAt = now
            var ids = notice.collapseIds
            var coalesceKey: String?
            if case .coalesced(let at, let merged, let key) = action {
                availableAt = at
                ids = merged
                coalesceKey = key
            }
            let seed =
                coalesceKey ?? (ids.joined(separator: "\u{0}") + "\u{0}\(now.timeIntervalSince1970)")
            let withdraw = PushContent(
                purpose: .withdraw,
                notificationId: NotificationIdentity.backgroundId(
                    userId: notice.userId, installationId: device.installationId, seed: seed),
                categoryId: "herald.read", badge: badge, withdrawIds: ids, expiresAt: availableAt + expiry,
                availableAt: availableAt, coalesceKey: coalesceKey)
            if let delivery = PayloadBuilder.delivery(for: withdraw, to: device, userId: notice.userId) {
                result.deliveries.append(delivery)
            }
            guard device.platform == .apns, let badge else { continue }
            // A badge-only alert wakes no app code, so it is outside the silent budget; the latest one wins.
            let badgeOnly = PushContent(
                purpose: .badge,
                notificationId: NotificationIdentity.backgroundId(
                    userId: notice.userId, installationId: device.installationId, seed: "badge\u{0}\(seed)"),
                categoryId: "herald.read", badge: badge, expiresAt: now + expiry, availableAt: now,
                coalesceKey: "badge:" + device.installationId)
            if let delivery = PayloadBuilder.delivery(for: badgeOnly, to: device, userId: notice.userId) {
                result.deliveries.append(delivery)
            }
        }
        return result
    }
}
