import Foundation
import Testing

@testable import HeraldCore

/// One row per reason of the vocabulary: a scenario and the outcome it must produce, for a new event and, for the
/// steps a digest passes again, for a burst's digest at window close: one decision order, two entry points.
@Suite struct DeciderOutcomeTests {
    static let night = QuietHours(start: LocalTime("22:00")!, end: LocalTime("07:00")!)
    /// 23:00 UTC, inside the night window for a user in UTC.
    static let lateNight = instant(2026, 6, 1, 23)

    enum Scenario: String, CaseIterable, Sendable {
        case plain, actor, unknownCategory, archivedCategory, unknownUser, userOptedOut, defaultOff
        case requiredIgnoresOptOut, mutedAll, mutedCategory, mutedThread, expiredMute, requiredIgnoresMute, expired
        case quietDefer, quietSilent, quietDrop, quietBypass, quietDeferPastTTL, quietUnknownZone, outsideQuietHours
        case noDevices, onlyInactiveDevices, rateLimited, digestPreference

        /// The steps a digest passes again when its window closes (the actor, digest preference and rate limits
        /// apply only to new events).
        var appliesToDigests: Bool { ![.actor, .rateLimited, .digestPreference].contains(self) }

        var expected: (Outcome, String?) {
            switch self {
            case .plain, .requiredIgnoresOptOut, .expiredMute, .requiredIgnoresMute, .quietBypass, .outsideQuietHours:
                return (.delivered, nil)
            case .actor: return (.suppressedActor, nil)
            case .unknownCategory: return (.rejectedUnknownCategory, nil)
            case .archivedCategory: return (.rejectedArchivedCategory, nil)
            case .unknownUser: return (.suppressedUnknownUser, nil)
            case .userOptedOut: return (.suppressedPreference, "user")
            case .defaultOff: return (.suppressedPreference, "category default")
            case .mutedAll: return (.suppressedMuted, "all")
            case .mutedCategory: return (.suppressedMuted, "category")
            case .mutedThread: return (.suppressedMuted, "thread")
            case .expired: return (.suppressedExpired, nil)
            case .quietDefer: return (.deferredQuietHours, nil)
            case .quietSilent: return (.silencedQuietHours, nil)
            case .quietDrop: return (.droppedQuietHours, "policy")
            case .quietDeferPastTTL: return (.droppedQuietHours, "ttl_ends_in_quiet_hours")
            case .quietUnknownZone: return (.delivered, "zone_unknown")
            case .noDevices, .onlyInactiveDevices: return (.noDevices, nil)
            case .rateLimited: return (.rateLimited, nil)
            case .digestPreference: return (.digestedPreference, "user")
            }
        }

        /// The event, its category, the recipient's state (nil = unknown) and `now`.
        func setup() -> (Event, HeraldCore.Category?, RecipientState?, Date) {
            var event = Fixture.event()
            var category: HeraldCore.Category? = Fixture.category()
            var state: RecipientState? = Fixture.state()
            var now = Fixture.now
            switch self {
            case .plain: break
            case .actor: event.actor = "u1"
            case .unknownCategory: category = nil
            case .archivedCategory: category?.archived = true
            case .unknownUser: state = nil
            case .userOptedOut: state?.preference = .off
            case .defaultOff: category = Fixture.category(defaultPreference: .off)
            case .requiredIgnoresOptOut:
                category = Fixture.category(required: true)
                state?.preference = .off
            case .mutedAll: state?.mutes = [Mute(id: "m", scope: .all)]
            case .mutedCategory: state?.mutes = [Mute(id: "m", scope: .category, key: "chat.message")]
            case .mutedThread: state?.mutes = [Mute(id: "m", scope: .thread, key: "42")]
            case .expiredMute: state?.mutes = [Mute(id: "m", scope: .all, until: Fixture.now)]
            case .requiredIgnoresMute:
                category = Fixture.category(required: true)
                state?.mutes = [Mute(id: "m", scope: .all)]
            case .expired: event.occurredAt = Fixture.now - 86_400
            case .quietDefer, .quietSilent, .quietDrop, .quietBypass, .quietDeferPastTTL, .quietUnknownZone,
                .outsideQuietHours:
                now = self == .outsideQuietHours ? Fixture.now : DeciderOutcomeTests.lateNight
                event.occurredAt = now
                state?.profile.quietHours = DeciderOutcomeTests.night
                let policy: [Scenario: HeraldCore.Category.QuietHoursPolicy] = [
                    .quietSilent: .silent, .quietDrop: .drop, .quietBypass: .bypass,
                ]
                category = Fixture.category(
                    quietHours: policy[self] ?? .defer, ttl: self == .quietDeferPastTTL ? 3_600 : 86_400)
                if self == .quietUnknownZone { state?.profile.timeZone = "Mars/Olympus_Mons" }
            case .noDevices: state?.devices = []
            case .onlyInactiveDevices: state?.devices = [Fixture.device("d1", active: false)]
            case .rateLimited:
                category = Fixture.category(rateLimit: .init(count: 2, windowSeconds: 3_600))
                var empty = TokenBucket(capacity: 2, windowSeconds: 3_600, at: Fixture.now)
                empty.tokens = 0
                state?.categoryBucket = empty
            case .digestPreference: state?.preference = .digest
            }
            return (event, category, state, now)
        }
    }

    static func run(_ scenario: Scenario) -> (DecisionResult, Event) {
        let (event, category, state, now) = scenario.setup()
        let result = Fixture.decider().decide(
            event: event, category: category, recipients: ["u1"], states: state.map { ["u1": $0] } ?? [:], now: now)
        return (result, event)
    }

    @Test(arguments: Scenario.allCases)
    func outcome(_ scenario: Scenario) {
        let (result, event) = Self.run(scenario)
        #expect(result.decisions.count == 1)
        let decision = result.decisions[0]
        #expect(decision.outcome == scenario.expected.0)
        #expect(decision.detail == scenario.expected.1)
        #expect(decision.eventId == event.id && decision.userId == "u1")
        // Pushes are queued exactly for the outcomes that send one now or later.
        let sends: Set<Outcome> = [.delivered, .deferredQuietHours, .silencedQuietHours]
        #expect((result.deliveries.count > 0) == sends.contains(decision.outcome))
        #expect(decision.deliveries == result.deliveries.count)
        // The unread count moves exactly for the outcomes that reach the feed, and the decision says so.
        #expect((result.changes.unreadCounts["u1"] != nil) == decision.outcome.reachesFeed)
        #expect(decision.countsUnread == decision.outcome.reachesFeed)
        #expect((decision.feedPosition != nil) == decision.outcome.reachesFeed)
        let now = scenario.setup().3
        #expect(decision.deliverAt == decision.outcome.deliverAt(until: decision.until, now: now))
        #expect(
            (decision.deliverAt != nil) == sends.union([.digestedPreference, .collapsed]).contains(decision.outcome))
    }

    /// The same scenario for a burst of the scenario's event that was folded earlier and whose window closes now.
    @Test(arguments: Scenario.allCases.filter(\.appliesToDigests))
    func digestOutcome(_ scenario: Scenario) {
        let (event, category, state, now) = scenario.setup()
        let expiresAt = event.occurredAt + TimeInterval(category?.ttlSeconds ?? 86_400)
        var group = CollapseGroup(userId: "u1", key: "msg:42")
        let item = CollapsedItem(
            eventId: event.id, itemId: event.itemId, actor: event.actor, threadId: event.threadId,
            occurredAt: event.occurredAt, expiresAt: expiresAt)
        _ = group.eventHeldBack(item, window: 60, at: now - 120)
        let result = Fixture.decider().windowClosed(group: group, category: category, state: state, now: now)
        #expect(result.outcome == scenario.expected.0)
        #expect(result.detail == scenario.expected.1)
        #expect(result.notificationId == NotificationIdentity.digestId(userId: "u1", summary: group.summary))
        let sends: Set<Outcome> = [.delivered, .deferredQuietHours, .silencedQuietHours]
        #expect((result.deliveries.count > 0) == sends.contains(scenario.expected.0))
        #expect(result.deliverAt == scenario.expected.0.deliverAt(until: result.until, now: now))
        #expect(result.group.phase == .idle)
    }

    /// A burst over several threads is not one thread's: muting one of them leaves the digest alone.
    @Test func aDigestOverSeveralThreadsIsNotMutedByOneOfThem() {
        let (event, category, state, now) = Scenario.mutedThread.setup()
        var group = CollapseGroup(userId: "u1", key: "digest:chat.message")
        for (index, thread) in ["42", "43"].enumerated() {
            let item = CollapsedItem(
                eventId: "e\(index)", threadId: thread, occurredAt: event.occurredAt, expiresAt: now + 3_600)
            _ = group.eventHeldBack(item, window: 60, at: now - 120)
        }
        #expect(group.summary.threadId == nil)
        let result = Fixture.decider().windowClosed(group: group, category: category, state: state, now: now)
        #expect(result.outcome == .delivered)
    }

    @Test func deferralGoesAtTheEndOfQuietHoursAndKeepsTheExpiry() {
        let (result, event) = Self.run(.quietDefer)
        let morning = instant(2026, 6, 2, 7)
        #expect(result.decisions[0].until == morning)
        #expect(result.deliveries.allSatisfy { $0.availableAt == morning && $0.expiresAt == event.occurredAt + 86_400 })
        // A deferred push spends no rate-limit token now.
        #expect(result.changes.userBuckets.isEmpty && result.changes.categoryBuckets.isEmpty)
    }

    @Test func silencedPushesArePassiveAndSoundless() {
        let (result, _) = Self.run(.quietSilent)
        let aps = Fixture.parse(result.deliveries[0].body)?["aps"] as? [String: Any]
        #expect(aps?["interruption-level"] as? String == "passive")
        #expect(aps?["sound"] == nil)
        #expect(result.deliveries[0].headers["apns-priority"] == "5")
    }

    @Test func everyReasonOfTheVocabularyIsReachable() {
        let reached = Set(Scenario.allCases.map { $0.expected.0 })
        // `collapsed` is reached by the collapsing tests; `read` by an `item.read` event and `rejected.undecodable` by
        // a stored document that does not decode, both in the pipeline's tests.
        #expect(reached.union([.collapsed, .read, .rejectedUndecodable]) == Set(Outcome.allCases))
    }
}
