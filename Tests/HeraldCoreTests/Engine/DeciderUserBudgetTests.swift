import Foundation
import Testing

@testable import HeraldCore

/// The budget one user gets over all categories: what it holds back, and who is spared it.
@Suite struct DeciderUserBudgetTests {
    /// A shell for one user with one phone, publishing in a category without rate limit or collapsing.
    static func shell(
        _ config: DeciderConfig, category: HeraldCore.Category = Fixture.category()
    ) -> DeciderCollapseTests.Shell {
        var shell = DeciderCollapseTests.Shell()
        shell.state = Fixture.state(devices: [Fixture.device("phone")])
        shell.category = category
        shell.decider = Fixture.decider(config)
        return shell
    }

    /// Publishes `count` events at one instant, as one batch of the pipeline decides them, and returns the results.
    static func burst(
        _ shell: inout DeciderCollapseTests.Shell, count: Int = 100, prefix: String = "e"
    ) -> [DecisionResult] {
        (0..<count).map { shell.publish(Fixture.event("\(prefix)\($0)", thread: "t\($0)"), at: Fixture.now) }
    }

    static func tally(_ results: [DecisionResult]) -> [Outcome: Int] {
        results.reduce(into: [:]) { $0[$1.decisions[0].outcome, default: 0] += 1 }
    }

    @Test func withoutAUserWideBudgetEveryEventOfABurstIsDelivered() {
        var shell = Self.shell(DeciderConfig(userRateLimit: nil))
        let results = Self.burst(&shell)
        #expect(Self.tally(results) == [.delivered: 100])
        #expect(results.map(\.deliveries.count).reduce(0, +) == 100)
        #expect(results.allSatisfy { $0.changes.userBuckets.isEmpty })
    }

    @Test func theDefaultBudgetDeliversSixtyAnHourAndRecordsTheRestRateLimited() {
        #expect(DeciderConfig().userRateLimit == Category.RateLimitRule(count: 60, windowSeconds: 3_600))
        var shell = Self.shell(DeciderConfig())
        let results = Self.burst(&shell)
        #expect(Self.tally(results) == [.delivered: 60, .rateLimited: 40])
        #expect(results.prefix(60).allSatisfy { $0.decisions[0].outcome == .delivered && $0.deliveries.count == 1 })
        #expect(results.suffix(40).allSatisfy { $0.decisions[0].outcome == .rateLimited && $0.deliveries.isEmpty })
        // Every event still reaches the unread count, pushed or not.
        #expect(shell.state.unreadCount == 100)
        // The budget refills smoothly: one more push a minute later.
        let later = shell.publish(Fixture.event("late"), at: Fixture.now + 60)
        #expect(later.decisions[0].outcome == .delivered)
    }

    @Test func aCategoryThatDoesNotCountTowardTheBudgetDeliversEveryEvent() {
        var exempt = Fixture.category()
        exempt.countsTowardUserRateLimit = false
        var shell = Self.shell(DeciderConfig(), category: exempt)
        let results = Self.burst(&shell)
        #expect(Self.tally(results) == [.delivered: 100])
        #expect(results.map(\.deliveries.count).reduce(0, +) == 100)
        // It spent none of the user's budget: a category that counts toward it still gets its sixty.
        #expect(results.allSatisfy { $0.changes.userBuckets.isEmpty })
        shell.category = Fixture.category()
        #expect(Self.tally(Self.burst(&shell, prefix: "c")) == [.delivered: 60, .rateLimited: 40])
    }

    @Test func aCategoryOutsideTheUserBudgetKeepsItsOwnRateLimit() {
        var exempt = Fixture.category(rateLimit: .init(count: 10, windowSeconds: 3_600))
        exempt.countsTowardUserRateLimit = false
        var shell = Self.shell(DeciderConfig(), category: exempt)
        #expect(Self.tally(Self.burst(&shell)) == [.delivered: 10, .rateLimited: 90])
    }

    @Test func overTheBudgetACollapsingCategoryFoldsTheBurstIntoItsDigest() {
        let collapsing = Fixture.category(collapse: .init(keyTemplate: "msg:{thread_id}", windowSeconds: 300))
        var shell = Self.shell(
            DeciderConfig(userRateLimit: .init(count: 3, windowSeconds: 3_600)), category: collapsing)
        let results = Self.burst(&shell, count: 5)
        #expect(results.prefix(3).allSatisfy { $0.decisions[0].outcome == .delivered })
        #expect(results.suffix(2).allSatisfy { $0.decisions[0].outcome == .collapsed })
        #expect(results.suffix(2).allSatisfy { $0.decisions[0].detail == "rate_limited" && $0.deliveries.isEmpty })
        let digest = shell.closeWindow("burst:chat.message:msg:t3", at: Fixture.now + 300)
        #expect(digest.outcome == .delivered && digest.summary?.folded == 1)
    }

    @Test func theDigestPreferenceWaitsForTheConfiguredWindow() {
        var shell = Self.shell(DeciderConfig(userRateLimit: nil, digestWindowSeconds: 600))
        shell.state.preference = .digest
        let first = shell.publish(Fixture.event("e1"), at: Fixture.now)
        #expect(first.decisions[0].outcome == .digestedPreference)
        #expect(first.changes.digestTimers.map(\.at) == [Fixture.now + 600])
        #expect(first.decisions[0].until == Fixture.now + 600)
    }
}
