import Foundation

/// How quiet hours affect one push: send now, send silently, hold until a time, or not at all.
struct QuietHoursTiming: Sendable, Hashable {
    enum Verdict: Sendable, Hashable {
        case normal
        case silenced
        case deferred(until: Date)
        case dropped(detail: String, until: Date?)
    }

    var verdict: Verdict
    /// A machine-readable note when quiet hours could not be evaluated (`zone_unknown`).
    var note: String?

    var isDeferred: Bool {
        if case .deferred = verdict { return true }
        return false
    }

    var isSilenced: Bool { verdict == .silenced }

    /// When the push may go.
    func sendAt(now: Date) -> Date {
        if case .deferred(let until) = verdict { return until }
        return now
    }

    /// Applies the user's quiet hours and the category's policy at `now` to a push that expires at `expiresAt`.
    static func evaluate(
        category: Category, profile: UserProfile, zones: any ZoneDirectory, now: Date, expiresAt: Date
    ) -> QuietHoursTiming {
        guard let quietHours = profile.quietHours, category.quietHours != .bypass else {
            return QuietHoursTiming(verdict: .normal)
        }
        // An unknown zone is never treated as UTC: quiet hours are skipped and the decision says why.
        guard let zoneId = profile.timeZone, let zone = zones.zone(zoneId) else {
            return QuietHoursTiming(verdict: .normal, note: "zone_unknown")
        }
        guard let window = quietHours.window(containing: now, in: zone) else {
            return QuietHoursTiming(verdict: .normal)
        }
        switch category.quietHours {
        case .bypass:
            return QuietHoursTiming(verdict: .normal)
        case .silent:
            return QuietHoursTiming(verdict: .silenced)
        case .drop:
            return QuietHoursTiming(verdict: .dropped(detail: "policy", until: window.end))
        case .defer:
            let end = quietHours.deferralEnd(for: now, in: zone) ?? window.end
            if end >= expiresAt {
                return QuietHoursTiming(verdict: .dropped(detail: "ttl_ends_in_quiet_hours", until: end))
            }
            return QuietHoursTiming(verdict: .deferred(until: end))
        }
    }
}
