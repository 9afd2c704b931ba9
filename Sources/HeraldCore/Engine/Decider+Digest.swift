import Foundation

/// Closing a burst's window: the digest goes through the steps of `DecisionOrder` that may have changed since the
/// burst began (category archived, preference off, a mute of the category or of the burst's thread, expiry, quiet
/// hours, devices).
extension Decider {
    /// The close timer of `group` fired at `now`.
    public func windowClosed(
        group: CollapseGroup, category: Category?, state: RecipientState?, now: Date
    ) -> DigestResult {
        var group = group
        let action = group.windowClosed(at: now)
        var result = DigestResult(
            group: group, outcome: nil, detail: nil, until: nil, notificationId: nil, summary: nil,
            deliveries: [],
            digestTimers: [])
        guard case .sendDigest(let summary) = action else {
            if case .notYet(let until) = action, let category {
                result.until = until
                result.digestTimers = [
                    StateChanges.DigestTimer(
                        userId: group.userId, key: group.key, categoryId: category.id, at: until)
                ]
            }
            return result
        }
        result.summary = summary
        result.notificationId = NotificationIdentity.digestId(userId: group.userId, summary: summary)
        func finish(_ stop: DecisionOrder.Stop) -> DigestResult {
            result.outcome = stop.outcome
            result.detail = stop.detail
            result.until = stop.until
            result.deliverAt = stop.outcome.deliverAt(until: stop.until, now: now)
            return result
        }
        // 2–6. Category, user, preference, mutes (the burst's thread), expiry.
        let reached: DecisionOrder.Reached
        switch DecisionOrder.reachesUser(
            category: category, state: state, thread: summary.threadId, expiresAt: summary.expiresAt, now: now)
        {
        case .failure(let stop): return finish(stop)
        case .success(let value): reached = value
        }
        // 7–8. Quiet hours, devices.
        let timing: QuietHoursTiming
        switch DecisionOrder.reachesDevice(reached, zones: zones, expiresAt: summary.expiresAt, now: now) {
        case .failure(let stop): return finish(stop)
        case .success(let value): timing = value
        }
        // 12. Fan-out, replacing the burst's first notification in place.
        let badge = reached.state.profile.appBadge(unread: max(0, reached.state.unreadCount))
        let burst = BurstContext(
            userId: group.userId, category: reached.category, state: reached.state, badge: badge, timing: timing,
            now: now)
        var decision = DecisionResult()
        fanOutDigest(summary, burst: burst, sendAt: timing.sendAt(now: now), into: &decision)
        result.deliveries = decision.deliveries
        return finish(DecisionOrder.sent(timing))
    }
}
