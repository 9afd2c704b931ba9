import Foundation

/// The two buckets an alert must pass: per user per category, and per user over all categories.
///
/// A push is admitted only when both buckets have a token, and then takes one from each, so a refusal by one
/// bucket never spends the other's token.
public struct RateLimiter: Sendable, Hashable {
    public private(set) var categoryBucket: TokenBucket?
    public private(set) var userBucket: TokenBucket?

    /// Limits from the category's rule and the global per-user rule; stored buckets are adopted (and adjusted to
    /// changed rules), missing ones start full. A `nil` rule means no limit at that level.
    public init(
        categoryRule: Category.RateLimitRule?, categoryBucket: TokenBucket?,
        userRule: Category.RateLimitRule?, userBucket: TokenBucket?, at now: Date
    ) {
        self.categoryBucket = categoryRule.map { rule in
            categoryBucket?.adjusted(to: rule) ?? TokenBucket(rule: rule, at: now)
        }
        self.userBucket = userRule.map { rule in
            userBucket?.adjusted(to: rule) ?? TokenBucket(rule: rule, at: now)
        }
    }

    /// Admits one push at `now` if every bucket has a token, spending one from each.
    public mutating func admit(at now: Date) -> Bool {
        categoryBucket?.refill(at: now)
        userBucket?.refill(at: now)
        let hasToken = [categoryBucket, userBucket].allSatisfy { bucket in
            bucket.map { $0.tokens >= 1 } ?? true
        }
        guard hasToken else { return false }
        _ = categoryBucket?.take(at: now)
        _ = userBucket?.take(at: now)
        return true
    }
}
