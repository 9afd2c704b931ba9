import Foundation

/// The policy steps for one recipient, in the order of the design: recipient, category, preference, mutes,
/// expiry, quiet hours, devices, digest preference, collapsing and rate limits, then fan-out.
extension Decider {
    func decideRecipient(
        _ userId: String, event: Event, category: Category?, state: RecipientState?, now: Date,
        into result: inout DecisionResult
    ) -> Decision {
        var decision = Decision(eventId: event.id, userId: userId, outcome: .delivered)
        func finish(_ outcome: Outcome, detail: String? = nil, until: Date? = nil) -> Decision {
            decision.outcome = outcome
            decision.detail = detail ?? decision.detail
            decision.until = until
            return decision
        }
        if userId == event.actor { return finish(.suppressedActor) }
        guard let category else { return finish(.rejectedUnknownCategory) }
        if category.archived { return finish(.rejectedArchivedCategory) }
        guard let state else { return finish(.suppressedUnknownUser) }

        let preference = EffectivePreference.resolve(category: category, userSetting: state.preference)
        if preference.setting == .off {
            return finish(.suppressedPreference, detail: preference.source.rawValue)
        }
        let thread = Self.threadKey(for: event, category: category)
        if !category.required,
            let mute = state.mutes.first(where: {
                $0.applies(category: category.id, thread: thread, at: now)
            })
        {
            return finish(.suppressedMuted, detail: mute.scope.rawValue)
        }
        let expiresAt = event.occurredAt + TimeInterval(category.ttlSeconds)
        if now >= expiresAt { return finish(.suppressedExpired) }

        // From here on the event reaches the user's unread count, whatever happens to the push.
        var unread = max(0, state.unreadCount)
        if category.countsTowardBadge {
            unread += 1
            result.changes.unreadCounts[userId] = unread
        }
        decision.badge = state.profile.badge ? unread : nil
        decision.notificationId = NotificationIdentity.notificationId(eventId: event.id, userId: userId)
        // Positions are allocated under the user's lock, so they follow commit order and a feed reader that has
        // passed a position never finds a lower one appearing later.
        let feedPosition = state.feedPosition + 1
        result.changes.feedPositions[userId] = feedPosition
        decision.feedPosition = feedPosition

        let timing = QuietHoursTiming.evaluate(
            category: category, profile: state.profile, zones: zones, now: now, expiresAt: expiresAt)
        decision.detail = timing.note
        if case .dropped(let detail, let until) = timing.verdict {
            return finish(.droppedQuietHours, detail: detail, until: until)
        }
        let sendAt = timing.sendAt(now: now)
        let devices = state.activeDevices
        if devices.isEmpty { return finish(.noDevices) }

        let item = CollapsedItem(
            eventId: event.id, itemId: event.itemId, actor: event.actor, actorName: event.actorName,
            occurredAt: event.occurredAt, expiresAt: expiresAt)
        let burst = BurstContext(
            userId: userId, category: category, state: state, badge: decision.badge, timing: timing,
            now: now)

        if preference.setting == .digest {
            let key = Self.digestKey(for: category)
            var group = state.collapseGroups[key] ?? CollapseGroup(userId: userId, key: key)
            let action = group.eventHeldBack(
                item, window: TimeInterval(config.digestWindowSeconds), at: sendAt)
            decision.collapseId = group.collapseId
            let until = apply(action, to: group, burst: burst, into: &result)
            return finish(.digestedPreference, detail: preference.source.rawValue, until: until)
        }

        var collapseId = decision.notificationId
        if let rule = category.collapse,
            let key = (try? KeyTemplate(rule.keyTemplate))?.render(for: event)
        {
            var group = state.collapseGroups[key] ?? CollapseGroup(userId: userId, key: key)
            let window = TimeInterval(rule.windowSeconds)
            decision.collapseId = group.collapseId
            if !group.startsBurst(at: sendAt) {
                let action = group.eventArrived(item, window: window, at: sendAt)
                let until = apply(action, to: group, burst: burst, into: &result)
                return finish(.collapsed, until: until)
            }
            if !timing.isDeferred,
                !admit(userId: userId, category: category, state: state, now: now, into: &result)
            {
                let action = group.eventHeldBack(item, window: window, at: sendAt)
                let until = apply(action, to: group, burst: burst, into: &result)
                return finish(.collapsed, detail: "rate_limited", until: until)
            }
            _ = group.eventArrived(item, window: window, at: sendAt)
            result.changes.collapseGroups.append(group)
            collapseId = group.collapseId
        } else if !timing.isDeferred,
            !admit(userId: userId, category: category, state: state, now: now, into: &result)
        {
            return finish(.rateLimited)
        }

        decision.collapseId = collapseId
        let queued = fanOutAlert(
            event: event, category: category, state: state, devices: devices, thread: thread,
            notificationId: decision.notificationId!, collapseId: collapseId!, badge: decision.badge,
            cursor: FeedCursor(position: feedPosition).text,
            timing: timing, sendAt: sendAt, expiresAt: expiresAt, into: &result)
        decision.deliveries = queued
        switch timing.verdict {
        case .deferred(let until): return finish(.deferredQuietHours, until: until)
        case .silenced: return finish(.silencedQuietHours)
        case .dropped, .normal: return finish(.delivered)
        }
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
