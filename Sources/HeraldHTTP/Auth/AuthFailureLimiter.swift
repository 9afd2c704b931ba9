import Synchronization

/// Bounds failed authentications per client address: each address has a bucket of `count` failures that refills at
/// `count` per `period`. An address whose bucket is empty is refused with 429 before its credential is looked up, so
/// a flood of made-up keys neither costs a database query per request nor pushes valid keys out of the cache.
public final class AuthFailureLimiter: Sendable {
    /// Failures allowed per address: `count` at once, refilled at `count` per `period`.
    public struct Limit: Sendable, Hashable {
        public var count: Int
        public var period: Duration

        /// Creates a limit; `count` and `period` must be positive.
        public init(count: Int, period: Duration) {
            precondition(count > 0 && period > .zero)
            self.count = count
            self.period = period
        }
    }

    private struct Bucket {
        var failures: Double
        var updated: ContinuousClock.Instant
    }

    /// The limit applied to every address.
    public let limit: Limit
    private let buckets: Mutex<LRUCache<String, Bucket>>

    /// Creates a limiter that remembers at most `addresses` client addresses, forgetting the least recently seen.
    public init(limit: Limit, addresses: Int = 10_000) {
        self.limit = limit
        self.buckets = Mutex(LRUCache(capacity: addresses))
    }

    /// Whole seconds until `address` may try again, or nil when it may try now.
    public func retryAfter(address: String, at now: ContinuousClock.Instant) -> Int? {
        buckets.withLock { cache in
            guard var bucket = cache.value(for: address) else { return nil }
            bucket.failures = drained(bucket, at: now)
            cache.set(Bucket(failures: bucket.failures, updated: now), for: address)
            let excess = bucket.failures - Double(limit.count - 1)
            guard excess > 0 else { return nil }
            // A hair under whole seconds stays that second: 19.000000000000004 s is 19 s.
            return max(1, Int((excess * secondsPerFailure - 1e-6).rounded(.up)))
        }
    }

    /// Counts one failed authentication from `address`.
    public func recordFailure(address: String, at now: ContinuousClock.Instant) {
        buckets.withLock { cache in
            let failures = cache.value(for: address).map { drained($0, at: now) } ?? 0
            cache.set(Bucket(failures: min(failures + 1, Double(limit.count)), updated: now), for: address)
        }
    }

    private var secondsPerFailure: Double {
        let (seconds, attoseconds) = limit.period.components
        return (Double(seconds) + Double(attoseconds) / 1e18) / Double(limit.count)
    }

    private func drained(_ bucket: Bucket, at now: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = bucket.updated.duration(to: now).components
        let elapsed = max(0, Double(seconds) + Double(attoseconds) / 1e18)
        return max(0, bucket.failures - elapsed / secondsPerFailure)
    }
}
