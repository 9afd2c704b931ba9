import Foundation

/// A token bucket: holds up to `capacity` tokens and refills `capacity` tokens per `windowSeconds`, smoothly.
///
/// The state is a value the shell stores and passes back; time only moves forward inside it, so a `now` older
/// than the last update (clock skew between workers) refills nothing instead of un-spending tokens.
public struct TokenBucket: Sendable, Hashable, Codable {
    public var capacity: Int
    public var windowSeconds: Int
    /// Tokens at `updatedAt`; negative while future tokens are reserved.
    public var tokens: Double
    public var updatedAt: Date

    /// A full bucket.
    public init(capacity: Int, windowSeconds: Int, at now: Date) {
        self.capacity = max(1, capacity)
        self.windowSeconds = max(1, windowSeconds)
        self.tokens = Double(self.capacity)
        self.updatedAt = now
    }

    /// A full bucket for a category or global rule.
    public init(rule: Category.RateLimitRule, at now: Date) {
        self.init(capacity: rule.count, windowSeconds: rule.windowSeconds, at: now)
    }

    /// Tokens gained per second.
    public var refillRate: Double { Double(capacity) / Double(windowSeconds) }

    /// The tokens available at `now`, never above capacity.
    public func tokens(at now: Date) -> Double {
        let elapsed = max(0, now.timeIntervalSince(updatedAt))
        return min(Double(capacity), tokens + elapsed * refillRate)
    }

    /// Brings the bucket forward to `now`.
    public mutating func refill(at now: Date) {
        guard now > updatedAt else { return }
        tokens = tokens(at: now)
        updatedAt = now
    }

    /// Spends one token if one is available at `now`.
    public mutating func take(at now: Date) -> Bool {
        refill(at: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// When the next whole token will be available (now, if one already is).
    public func nextTokenAt(after now: Date) -> Date {
        let available = tokens(at: now)
        if available >= 1 { return max(now, updatedAt) }
        return max(now, updatedAt) + (1 - available) / refillRate
    }

    /// Spends the next token even if it only becomes available later, and says when that is.
    public mutating func reserve(at now: Date) -> Date {
        let availableAt = nextTokenAt(after: now)
        refill(at: now)
        tokens -= 1
        return availableAt
    }

    /// The same bucket under a changed rule: the fill level carries over, capped by the new capacity.
    public func adjusted(to rule: Category.RateLimitRule) -> TokenBucket {
        guard rule.count != capacity || rule.windowSeconds != windowSeconds else { return self }
        var bucket = self
        bucket.capacity = max(1, rule.count)
        bucket.windowSeconds = max(1, rule.windowSeconds)
        bucket.tokens = min(tokens, Double(bucket.capacity))
        return bucket
    }

    enum CodingKeys: String, CodingKey {
        case capacity, tokens
        case windowSeconds = "window_seconds"
        case updatedAt = "updated_at"
    }
}
