import Foundation
import Testing

@testable import HeraldCore

@Suite struct DeciderCollapseTests {
    static let category = Fixture.category(collapse: .init(keyTemplate: "msg:{thread_id}", windowSeconds: 300))
    /// The group of the burst of thread 42: the category and the rendered collapse key.
    static let burst = "burst:chat.message:msg:42"

    /// Runs events through the decider one after the other, carrying the state forward as the shell would.
    struct Shell {
        var state = Fixture.state(devices: [Fixture.device("ios"), Fixture.device("android", platform: .fcm)])
        var category = DeciderCollapseTests.category
        var decider = Fixture.decider()

        mutating func publish(_ event: Event, at now: Date) -> DecisionResult {
            let result = decider.decide(
                event: event, category: category, recipients: ["u1"], states: ["u1": state], now: now)
            absorb(result.changes)
            return result
        }

        mutating func absorb(_ changes: StateChanges) {
            for group in changes.collapseGroups { state.collapseGroups[group.key] = group }
            if let unread = changes.unreadCounts["u1"] { state.unreadCount = unread }
            if let bucket = changes.categoryBuckets["u1"] { state.categoryBucket = bucket }
            if let bucket = changes.userBuckets["u1"] { state.userBucket = bucket }
        }

        mutating func closeWindow(_ key: String, at now: Date) -> DigestResult {
            let result = decider.windowClosed(
                group: state.collapseGroups[key]!, category: category, state: state, now: now)
            state.collapseGroups[key] = result.group
            return result
        }
    }

    @Test func aBurstBecomesOneDigestReplacingTheFirstInPlace() {
        var shell = Shell()
        let t0 = Fixture.now
        let first = shell.publish(Fixture.event("e1", actor: "asha"), at: t0)
        #expect(first.decisions[0].outcome == .delivered)
        #expect(first.decisions[0].collapseId == "msg:42")
        #expect(first.deliveries.count == 2)
        #expect(first.deliveries.first { $0.platform == .apns }?.headers["apns-collapse-id"] == "msg:42")

        let second = shell.publish(Fixture.event("e2", actor: "ben", actorName: "Ben"), at: t0 + 30)
        #expect(second.decisions[0].outcome == .collapsed)
        #expect(second.decisions[0].until == t0 + 300)
        #expect(second.deliveries.isEmpty)
        #expect(second.changes.digestTimers.map(\.at) == [t0 + 300])
        let third = shell.publish(Fixture.event("e3", actor: "cy", actorName: "Cy"), at: t0 + 60)
        #expect(third.decisions[0].outcome == .collapsed)
        #expect(third.changes.digestTimers.isEmpty)
        #expect(shell.state.unreadCount == 3)

        let digest = shell.closeWindow(Self.burst, at: t0 + 300)
        #expect(digest.outcome == .delivered)
        #expect(digest.summary?.count == 3)
        #expect(digest.deliveries.count == 2)
        let apns = digest.deliveries.first { $0.platform == .apns }!
        #expect(apns.headers["apns-collapse-id"] == "msg:42")
        let root = Fixture.parse(apns.body)!
        #expect(root["count"] as? Int == 3 && root["kind"] as? String == "digest")
        let alert = (root["aps"] as? [String: Any])?["alert"] as? [String: Any]
        #expect(alert?["title"] as? String == "3 new messages")
        #expect(alert?["body"] as? String == "From Cy and 2 others")
        #expect((root["aps"] as? [String: Any])?["badge"] as? Int == 3)
        let fcm = Fixture.parse(digest.deliveries.first { $0.platform == .fcm }!.body)?["message"] as? [String: Any]
        #expect(((fcm?["android"] as? [String: Any])?["notification"] as? [String: Any])?["tag"] as? String == "msg:42")
        #expect(shell.state.collapseGroups[Self.burst]?.phase == .idle)
    }

    /// Two categories with the same collapse template keep apart bursts: each folds only its own events and its
    /// close is decided by its own category; on the device they still share the collapse key's id.
    @Test func categoriesWithTheSameTemplateKeepApartBursts() throws {
        var shell = Shell()
        var mention = Self.category
        mention.id = "chat.mention"
        var b1 = Fixture.event("b1")
        b1.category = mention.id
        let first = shell.publish(Fixture.event("a1"), at: Fixture.now)
        shell.category = mention
        let other = shell.publish(b1, at: Fixture.now + 5)
        shell.category = Self.category
        let folded = shell.publish(Fixture.event("a2"), at: Fixture.now + 10)
        #expect([first, other, folded].map { $0.decisions[0].outcome } == [.delivered, .delivered, .collapsed])
        #expect([first, other, folded].map { $0.decisions[0].collapseId } == ["msg:42", "msg:42", "msg:42"])
        #expect(folded.changes.digestTimers.map(\.categoryId) == ["chat.message"])
        #expect(shell.state.collapseGroups.keys.sorted() == ["burst:chat.mention:msg:42", Self.burst])
        try #require(shell.state.collapseGroups[Self.burst] != nil)
        let digest = shell.closeWindow(Self.burst, at: Fixture.now + 300)
        #expect(digest.outcome == .delivered)
        #expect(digest.summary?.count == 2 && digest.summary?.collapseId == "msg:42")
    }

    @Test func anEarlyTimerIsReArmed() {
        var shell = Shell()
        _ = shell.publish(Fixture.event("e1"), at: Fixture.now)
        _ = shell.publish(Fixture.event("e2"), at: Fixture.now + 1)
        let early = shell.closeWindow(Self.burst, at: Fixture.now + 100)
        #expect(early.outcome == nil && early.deliveries.isEmpty)
        #expect(early.digestTimers.map(\.at) == [Fixture.now + 300])
    }

    @Test func aDigestRechecksThePreference() {
        var shell = Shell()
        _ = shell.publish(Fixture.event("e1"), at: Fixture.now)
        _ = shell.publish(Fixture.event("e2"), at: Fixture.now + 1)
        shell.state.preference = .off
        let digest = shell.closeWindow(Self.burst, at: Fixture.now + 300)
        #expect(digest.outcome == .suppressedPreference)
        #expect(digest.deliveries.isEmpty)
    }

    @Test func rateLimitedEventsFoldIntoTheBurstInsteadOfBeingLost() {
        var shell = Shell()
        shell.category = Fixture.category(
            collapse: .init(keyTemplate: "msg:{thread_id}", windowSeconds: 300),
            rateLimit: .init(count: 1, windowSeconds: 3_600))
        let first = shell.publish(Fixture.event("e1", thread: "1"), at: Fixture.now)
        #expect(first.decisions[0].outcome == .delivered)
        // Another thread, a new burst, but the category budget is spent: it is held for a digest.
        let second = shell.publish(Fixture.event("e2", thread: "2"), at: Fixture.now + 10)
        #expect(second.decisions[0].outcome == .collapsed)
        #expect(second.decisions[0].detail == "rate_limited")
        #expect(second.changes.digestTimers.map(\.key) == ["burst:chat.message:msg:2"])
        let digest = shell.closeWindow("burst:chat.message:msg:2", at: Fixture.now + 310)
        #expect(digest.summary?.count == 1 && digest.summary?.folded == 1)
        #expect(digest.outcome == .delivered)
    }

    @Test func withoutCollapsingExcessIsRateLimited() {
        var shell = Shell()
        shell.category = Fixture.category(rateLimit: .init(count: 2, windowSeconds: 3_600))
        let outcomes = (0..<4).map {
            shell.publish(Fixture.event("e\($0)"), at: Fixture.now + Double($0)).decisions[0].outcome
        }
        #expect(outcomes == [.delivered, .delivered, .rateLimited, .rateLimited])
        #expect(shell.state.unreadCount == 4)
    }

    @Test func theUserWideBudgetSparesRequiredCategories() {
        var shell = Shell()
        shell.category = Fixture.category()
        shell.decider = Fixture.decider(DeciderConfig(userRateLimit: .init(count: 1, windowSeconds: 3_600)))
        #expect(shell.publish(Fixture.event("e1"), at: Fixture.now).decisions[0].outcome == .delivered)
        #expect(shell.publish(Fixture.event("e2", thread: "7"), at: Fixture.now).decisions[0].outcome == .rateLimited)
        shell.category = Fixture.category(required: true)
        #expect(shell.publish(Fixture.event("e3"), at: Fixture.now).decisions[0].outcome == .delivered)
    }

    @Test func digestPreferenceCollectsEverythingIntoOneDigest() {
        var shell = Shell()
        shell.state.preference = .digest
        let outcomes = (0..<5).map {
            shell.publish(Fixture.event("e\($0)", thread: "t\($0)"), at: Fixture.now + Double($0) * 60)
        }
        #expect(outcomes.allSatisfy { $0.decisions[0].outcome == .digestedPreference && $0.deliveries.isEmpty })
        #expect(outcomes[0].changes.digestTimers.map(\.at) == [Fixture.now + 3_600])
        let digest = shell.closeWindow("digest:chat.message", at: Fixture.now + 3_600)
        #expect(digest.summary?.count == 5)
        #expect(digest.deliveries.count == 2)
    }

    @Test func eventsArrivingDuringQuietHoursCollapseIntoTheMorningBurst() {
        var shell = Shell()
        shell.state.profile.quietHours = DeciderOutcomeTests.night
        let night = DeciderOutcomeTests.lateNight
        let first = shell.publish(Fixture.event("e1", occurredAt: night), at: night)
        #expect(first.decisions[0].outcome == .deferredQuietHours)
        let morning = instant(2026, 6, 2, 7)
        #expect(first.deliveries.allSatisfy { $0.availableAt == morning })
        let second = shell.publish(Fixture.event("e2", occurredAt: night + 600), at: night + 600)
        #expect(second.decisions[0].outcome == .collapsed)
        #expect(second.decisions[0].until == morning + 300)
    }
}
