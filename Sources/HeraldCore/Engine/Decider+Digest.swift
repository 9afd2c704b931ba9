import Foundation

/// Closing a burst's window: the digest goes through the checks that may have changed since the burst began
/// (category archived, preference off, mute, expiry, quiet hours, devices).
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
        func finish(_ outcome: Outcome, detail: String? = nil, until: Date? = nil) -> DigestResult {
            result.outcome = outcome
            result.detail = detail ?? result.detail
            result.until = until
            return result
        }
        guard let category else { return finish(.rejectedUnknownCategory) }
        if category.archived { return finish(.rejectedArchivedCategory) }
        guard let state else { return finish(.suppressedUnknownUser) }
        let preference = EffectivePreference.resolve(category: category, userSetting: state.preference)
        if preference.setting == .off {
            return finish(.suppressedPreference, detail: preference.source.rawValue)
        }
        if !category.required,
            let mute = state.mutes.first(where: {
                $0.applies(category: category.id, thread: nil, at: now)
            })
        {
            return finish(.suppressedMuted, detail: mute.scope.rawValue)
        }
        if now >= summary.expiresAt { return finish(.suppressedExpired) }
        let timing = QuietHoursTiming.evaluate(
            category: category, profile: state.profile, zones: zones, now: now,
            expiresAt: summary.expiresAt)
        result.detail = timing.note
        if case .dropped(let detail, let until) = timing.verdict {
            return finish(.droppedQuietHours, detail: detail, until: until)
        }
        if state.activeDevices.isEmpty { return finish(.noDevices) }
        let badge = state.profile.badge ? max(0, state.unreadCount) : nil
        let burst = BurstContext(
            userId: group.userId, category: category, state: state, badge: badge, timing: timing, now: now
        )
        var decision = DecisionResult()
        fanOutDigest(summary, burst: burst, sendAt: timing.sendAt(now: now), into: &decision)
        result.deliveries = decision.deliveries
        result.notificationId = decision.deliveries.first?.notificationId
        switch timing.verdict {
        case .deferred(let until): return finish(.deferredQuietHours, until: until)
        case .silenced: return finish(.silencedQuietHours)
        case .dropped, .normal: return finish(.delivered)
        }
    }
}
