import Foundation

/// The decision order, written once. Every notification passes these steps in this order, whether it is a new event
/// for one recipient (`Decider.decide`) or a burst's digest when its window closes (`Decider.windowClosed`); the
/// first step that stops it gives its outcome.
///
///  1. Actor: the user who caused the event is not told (`suppressed.actor`). New events only.
///  2. Category: unknown (`rejected.unknown_category`) or archived (`rejected.archived_category`).
///  3. User: unknown (`suppressed.unknown_user`).
///  4. Preference: off, from the user or the category default (`suppressed.preference`, detail: the source).
///     Required categories cannot be turned off.
///  5. Mutes: everything, the category, or the thread (`suppressed.muted`, detail: the scope); a digest's thread is
///     the one every event of its burst shares. Required categories ignore mutes.
///  6. Expiry: the category's TTL has run out (`suppressed.expired`).
///     From here on a new event is in the user's feed and unread count, whatever happens to its push.
///  7. Quiet hours, in the user's zone: dropped (`dropped.quiet_hours`), else deferred or silenced (step 12).
///  8. Devices: none active (`no_devices`).
///  9. Digest preference: held for the user's digest (`digested.preference`). New events only.
/// 10. Collapsing: folded into a running burst (`collapsed`). New events only.
/// 11. Rate limits: the category's and the user-wide budget (`rate_limited`; `collapsed` with detail `rate_limited`
///     when the category collapses). New events only; a deferred push spends no token now.
/// 12. Fan-out to every active device: `delivered`, `deferred.quiet_hours` or `silenced.quiet_hours`; detail
///     `image_dropped` when the image did not fit some device's platform limit (it goes before any text is cut);
///     `ciphertext_fetch` when the ciphertext did not fit some device's and that push says `fetch` instead (the
///     app pulls the ciphertext from its feed item).
///
/// A `live_activity` category leaves out steps 9 and 10: its devices (step 8) are the Apple devices with a push
/// token for the event's activity (`no_devices` with detail `no_activity_token` when none has one), and its push
/// is a `liveactivity` update (`Decider.decideLiveActivity`).
///
/// A detail holding several notes lists them with commas: `zone_unknown,image_dropped,ciphertext_fetch`.
enum DecisionOrder {
    /// A step that ended the decision: its outcome, detail and, for held notifications, when they go.
    struct Stop: Error, Sendable, Hashable {
        var outcome: Outcome
        var detail: String?
        var until: Date?
    }

    /// What passing steps 2–6 established.
    struct Reached {
        var category: Category
        var state: RecipientState
        var preference: EffectivePreference
    }

    /// Steps 2–6: whether the notification reaches the user at all.
    static func reachesUser(
        category: Category?, state: RecipientState?, thread: String?, expiresAt: Date, now: Date
    ) -> Result<Reached, Stop> {
        guard let category else { return .failure(Stop(outcome: .rejectedUnknownCategory)) }
        if category.archived { return .failure(Stop(outcome: .rejectedArchivedCategory)) }
        guard let state else { return .failure(Stop(outcome: .suppressedUnknownUser)) }
        let preference = EffectivePreference.resolve(category: category, userSetting: state.preference)
        if preference.setting == .off {
            return .failure(Stop(outcome: .suppressedPreference, detail: preference.source.rawValue))
        }
        if !category.required,
            let mute = state.mutes.first(where: { $0.applies(category: category.id, thread: thread, at: now) })
        {
            return .failure(Stop(outcome: .suppressedMuted, detail: mute.scope.rawValue))
        }
        if now >= expiresAt { return .failure(Stop(outcome: .suppressedExpired)) }
        return .success(Reached(category: category, state: state, preference: preference))
    }

    /// Steps 7–8: whether it can go to a device, and when. `note` is the quiet-hours note every later outcome
    /// carries as its detail.
    static func reachesDevice(
        _ reached: Reached, zones: any ZoneDirectory, expiresAt: Date, now: Date
    ) -> Result<QuietHoursTiming, Stop> {
        let timing = QuietHoursTiming.evaluate(
            category: reached.category, profile: reached.state.profile, zones: zones, now: now, expiresAt: expiresAt)
        if case .dropped(let detail, let until) = timing.verdict {
            return .failure(Stop(outcome: .droppedQuietHours, detail: detail, until: until))
        }
        if !reached.state.hasActiveDevice { return .failure(Stop(outcome: .noDevices, detail: timing.note)) }
        return .success(timing)
    }

    /// Step 12: the outcome of a notification queued to the devices.
    static func sent(_ timing: QuietHoursTiming, imageDropped: Bool = false, ciphertextFetched: Bool = false) -> Stop {
        let notes = [timing.note, imageDropped ? "image_dropped" : nil, ciphertextFetched ? "ciphertext_fetch" : nil]
            .compactMap { $0 }
        let detail = notes.isEmpty ? nil : notes.joined(separator: ",")
        switch timing.verdict {
        case .deferred(let until): return Stop(outcome: .deferredQuietHours, detail: detail, until: until)
        case .silenced: return Stop(outcome: .silencedQuietHours, detail: detail)
        case .dropped, .normal: return Stop(outcome: .delivered, detail: detail)
        }
    }
}
