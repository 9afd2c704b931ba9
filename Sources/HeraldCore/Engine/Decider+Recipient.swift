import Foundation

/// One recipient of a new event, through the decision order of `DecisionOrder` (the steps are numbered there).
extension Decider {
    func decideRecipient(
        _ userId: String, event: Event, category: Category?, state: RecipientState?, now: Date,
        into result: inout DecisionResult
    ) -> Decision {
        let thread = Self.threadKey(for: event, category: category)
        var decision = Decision(eventId: event.reference, userId: userId, outcome: .delivered)
        decision.threadId = thread
        func finish(_ stop: DecisionOrder.Stop) -> Decision {
            decision.outcome = stop.outcome
            decision.detail = stop.detail
            decision.until = stop.until
            decision.deliverAt = stop.outcome.deliverAt(until: stop.until, now: now)
            return decision
        }
        // 1. Actor.
        if userId == event.actor { return finish(DecisionOrder.Stop(outcome: .suppressedActor)) }
        // 2–6. Category, user, preference, mutes, expiry.
        let expiresAt = category?.expiry(of: event) ?? event.occurredAt
        let reached: DecisionOrder.Reached
        switch DecisionOrder.reachesUser(
            category: category, state: state, thread: thread, expiresAt: expiresAt, now: now)
        {
        case .failure(let stop): return finish(stop)
        case .success(let value): reached = value
        }
        let (category, state, preference) = (reached.category, reached.state, reached.preference)

        // From here on the event reaches the user's feed and unread count, whatever happens to the push; an update
        // of a Live Activity reaches neither (`Category.leavesFeedEntry`).
        var unread = max(0, state.unreadCount)
        if category.countsUnread {
            unread = UnreadCount.raised(unread)
            result.changes.unreadCounts[userId] = unread
        }
        decision.countsUnread = category.countsUnread
        decision.badge = state.profile.appBadge(unread: unread)
        decision.notificationId = NotificationIdentity.notificationId(eventId: decision.eventId, userId: userId)
        // Positions are allocated under the user's lock, so they follow commit order and a feed reader that has
        // passed a position never finds a lower one appearing later.
        if category.leavesFeedEntry {
            let feedPosition = state.feedPosition + 1
            result.changes.feedPositions[userId] = feedPosition
            decision.feedPosition = feedPosition
        }

        // 7–8. Quiet hours, devices.
        let timing: QuietHoursTiming
        switch DecisionOrder.reachesDevice(reached, zones: zones, expiresAt: expiresAt, now: now) {
        case .failure(let stop): return finish(stop)
        case .success(let value): timing = value
        }
        let sendAt = timing.sendAt(now: now)
        let item = CollapsedItem(event, eventId: decision.eventId, thread: thread, expiresAt: expiresAt)
        let burst = BurstContext(
            userId: userId, category: category, state: state, badge: decision.badge, timing: timing,
            now: now)

        if category.kind == .liveActivity {
            let (stop, queued) = decideLiveActivity(
                userId, event: event, category: category, state: state, timing: timing,
                notificationId: decision.notificationId!, expiresAt: expiresAt, now: now, into: &result)
            decision.deliveries = queued
            return finish(stop)
        }

        // 9. Digest preference.
        if preference.setting == .digest {
            let key = Self.digestKey(for: category)
            var group = state.collapseGroups[key] ?? CollapseGroup(userId: userId, key: key)
            let action = group.eventHeldBack(
                item, window: TimeInterval(config.digestWindowSeconds), at: sendAt, decidedAt: now)
            decision.collapseId = group.collapseId
            let until = apply(action, to: group, burst: burst, into: &result)
            return finish(
                DecisionOrder.Stop(outcome: .digestedPreference, detail: preference.source.rawValue, until: until))
        }

        // 10–11. Collapsing, rate limits.
        var collapseId = decision.notificationId
        if let rule = category.collapse,
            var group = Self.burst(of: event, category: category, userId: userId, groups: state.collapseGroups)
        {
            let window = TimeInterval(rule.windowSeconds)
            decision.collapseId = group.collapseId
            if !group.startsBurst(at: sendAt) {
                let action = group.eventArrived(item, window: window, at: sendAt, decidedAt: now)
                let until = apply(action, to: group, burst: burst, into: &result)
                return finish(DecisionOrder.Stop(outcome: .collapsed, detail: timing.note, until: until))
            }
            if !timing.isDeferred,
                !admit(userId: userId, category: category, state: state, now: now, into: &result)
            {
                let action = group.eventHeldBack(item, window: window, at: sendAt, decidedAt: now)
                let until = apply(action, to: group, burst: burst, into: &result)
                return finish(DecisionOrder.Stop(outcome: .collapsed, detail: "rate_limited", until: until))
            }
            _ = group.eventArrived(item, window: window, at: sendAt, decidedAt: now)
            result.changes.collapseGroups.append(group)
            collapseId = group.collapseId
        } else if !timing.isDeferred,
            !admit(userId: userId, category: category, state: state, now: now, into: &result)
        {
            return finish(DecisionOrder.Stop(outcome: .rateLimited, detail: timing.note))
        }

        // 12. Fan-out.
        decision.collapseId = collapseId
        let fanned = fanOutAlert(
            event: event, category: category, state: state, devices: state.activeDevices, thread: thread,
            notificationId: decision.notificationId!, collapseId: collapseId!, badge: decision.badge,
            cursor: decision.feedPosition.map { FeedCursor(position: $0).text },
            timing: timing, sendAt: sendAt, expiresAt: expiresAt, into: &result)
        decision.deliveries = fanned.queued
        return finish(
            DecisionOrder.sent(
                timing, imageDropped: fanned.imageDropped, ciphertextFetched: fanned.ciphertextFetched))
    }

    /// Admits one push through the user's buckets, recording their new state; required categories, and those
    /// that do not count toward it, do not compete with everyday traffic for the user-wide budget.
    func admit(
        userId: String, category: Category, state: RecipientState, now: Date,
        into result: inout DecisionResult
    ) -> Bool {
        let categoryRule = category.rateLimit.map {
            InterruptionBudget.effectiveRule($0, dismissalStreak: state.dismissalStreak)
        }
        var limiter = RateLimiter(
            categoryRule: categoryRule, categoryBucket: state.categoryBucket,
            userRule: category.required || !category.countsTowardUserRateLimit ? nil : config.userRateLimit,
            userBucket: state.userBucket, at: now)
        let admitted = limiter.admit(at: now)
        if let bucket = limiter.categoryBucket { result.changes.categoryBuckets[userId] = bucket }
        if let bucket = limiter.userBucket { result.changes.userBuckets[userId] = bucket }
        return admitted
    }
}
