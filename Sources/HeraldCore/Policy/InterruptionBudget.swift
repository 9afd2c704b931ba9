import Foundation

/// The learned interruption budget: a category that opts in (`rate_limit.halve_after_dismissals: N`) halves a
/// user's limit once they dismissed its last N notifications without opening them, and restores it as soon as they
/// open one (their streak of dismissals then starts again from zero). The budget learns from the user instead of
/// waiting for them to mute or turn the category off.
public enum InterruptionBudget {
    /// The accepted values of `halve_after_dismissals`.
    public static let dismissals = 1...100

    /// The rule the user's bucket follows given their current streak of unopened dismissals.
    public static func effectiveRule(
        _ rule: Category.RateLimitRule, dismissalStreak: Int
    ) -> Category.RateLimitRule {
        guard isReduced(rule, dismissalStreak: dismissalStreak) else { return rule }
        var reduced = rule
        reduced.count = max(1, rule.count / 2)
        return reduced
    }

    /// Whether the streak has reached the category's threshold.
    public static func isReduced(_ rule: Category.RateLimitRule, dismissalStreak: Int) -> Bool {
        guard let threshold = rule.halveAfterDismissals else { return false }
        return dismissalStreak >= threshold
    }

    /// The streak after a batch of receipts for one category, in the order they happened: a dismissal extends it, an
    /// open resets it; displays change nothing.
    public static func streak(after receipts: [ReceiptKind], startingAt streak: Int) -> Int {
        receipts.reduce(streak) { current, kind in
            switch kind {
            case .dismissed: current + 1
            case .opened: 0
            case .displayed: current
            }
        }
    }

    /// The streak of every category whose receipts move it, after `receipts` taken in the order they happened,
    /// from `current` (none is a streak of 0).
    public static func streaks(
        after receipts: [(kind: ReceiptKind, categoryId: String, at: Date)], current: [String: Int]
    ) -> [String: Int] {
        var next: [String: Int] = [:]
        for (category, receipts) in Dictionary(grouping: receipts.filter(\.kind.movesDismissalStreak), by: \.categoryId)
        {
            next[category] = streak(
                after: receipts.sorted { $0.at < $1.at }.map(\.kind), startingAt: current[category] ?? 0)
        }
        return next
    }
}
