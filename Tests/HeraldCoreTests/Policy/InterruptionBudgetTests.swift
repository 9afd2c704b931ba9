import Foundation
import Testing

@testable import HeraldCore

@Suite("Learned interruption budget")
struct InterruptionBudgetTests {
    @Test(arguments: [
        ([ReceiptKind.dismissed, .dismissed], 0, 2), ([.dismissed, .opened], 5, 0), ([.opened, .dismissed], 5, 1),
        ([.displayed, .displayed], 3, 3), ([], 4, 4), ([.dismissed, .displayed, .dismissed], 1, 3),
    ])
    func streaksGrowWithDismissalsAndResetOnOpen(_ kinds: [ReceiptKind], _ start: Int, _ expected: Int) {
        #expect(InterruptionBudget.streak(after: kinds, startingAt: start) == expected)
    }

    @Test("Each category's streak moves by its own receipts in the order they happened; displays move none")
    func streaksByCategory() {
        let at = { (minute: Double) in Date(timeIntervalSince1970: 1_767_225_600 + minute * 60) }
        let receipts: [(kind: ReceiptKind, categoryId: String, at: Date)] = [
            (.opened, "chat", at(2)), (.dismissed, "chat", at(1)), (.dismissed, "chat", at(3)),
            (.dismissed, "news", at(1)), (.displayed, "promo", at(1)),
        ]
        let next = InterruptionBudget.streaks(after: receipts, current: ["chat": 7, "news": 2, "promo": 4])
        // chat: dismissed (8), opened (0), dismissed (1); news: 3; promo has only a display and does not move.
        #expect(next == ["chat": 1, "news": 3])
        #expect(!ReceiptKind.displayed.movesDismissalStreak)
    }

    @Test(arguments: [(10, 2, 0, 10), (10, 2, 1, 10), (10, 2, 2, 5), (10, 2, 9, 5), (1, 1, 1, 1), (3, 1, 4, 1)])
    func theLimitIsHalvedFromTheThresholdOn(_ count: Int, _ threshold: Int, _ streak: Int, _ expected: Int) {
        let rule = Category.RateLimitRule(count: count, windowSeconds: 3_600, halveAfterDismissals: threshold)
        #expect(InterruptionBudget.effectiveRule(rule, dismissalStreak: streak).count == expected)
    }

    @Test func categoriesThatDoNotOptInKeepTheirLimit() {
        let rule = Category.RateLimitRule(count: 8, windowSeconds: 60)
        #expect(InterruptionBudget.effectiveRule(rule, dismissalStreak: 1_000) == rule)
    }

    /// Four pushes an hour normally; after three unopened dismissals two an hour, until the user opens one.
    @Test func theDeciderAdmitsHalfAsManyWhileTheStreakLasts() {
        var clock = Fixture.now
        let category = Fixture.category(
            rateLimit: .init(count: 4, windowSeconds: 3_600, halveAfterDismissals: 3))
        var state = Fixture.state()
        let decider = Fixture.decider()
        func hour(_ streak: Int) -> [Outcome] {
            state.dismissalStreak = streak
            state.categoryBucket = nil
            let outcomes = (0..<6).map { index -> Outcome in
                let result = decider.decide(
                    event: Fixture.event("e\(clock.timeIntervalSince1970)-\(index)", thread: "t\(index)"),
                    category: category, recipients: ["u1"], states: ["u1": state], now: clock)
                if let bucket = result.changes.categoryBuckets["u1"] { state.categoryBucket = bucket }
                clock += 1
                return result.decisions[0].outcome
            }
            clock += 3_600
            return outcomes
        }
        #expect(hour(0).filter { $0 == .delivered }.count == 4)
        #expect(hour(2).filter { $0 == .delivered }.count == 4)
        #expect(hour(3).filter { $0 == .delivered }.count == 2)
        let opened = InterruptionBudget.streak(after: [.opened], startingAt: 3)
        #expect(hour(opened).filter { $0 == .delivered }.count == 4)
    }

    @Test func theThresholdIsValidated() {
        var category = Fixture.category(rateLimit: .init(count: 4, windowSeconds: 60, halveAfterDismissals: 0))
        #expect(category.validate().contains { $0.pointer == "/rate_limit/halve_after_dismissals" })
        category.rateLimit?.halveAfterDismissals = 5
        #expect(category.validate().isEmpty)
    }
}
