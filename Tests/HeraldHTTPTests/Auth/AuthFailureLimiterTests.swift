import HeraldHTTP
import Testing

@Suite struct AuthFailureLimiterTests {
    let start = ContinuousClock.now

    @Test func anAddressMayFailUpToTheCountThenWaitsForTheBucketToDrain() {
        // 3 failures a minute: one drains every 20 s.
        let limiter = AuthFailureLimiter(limit: .init(count: 3, period: .seconds(60)))
        for _ in 0..<2 { limiter.recordFailure(address: "10.0.0.1", at: start) }
        #expect(limiter.retryAfter(address: "10.0.0.1", at: start) == nil)
        limiter.recordFailure(address: "10.0.0.1", at: start)
        #expect(limiter.retryAfter(address: "10.0.0.1", at: start) == 20)
        #expect(limiter.retryAfter(address: "10.0.0.1", at: start + .seconds(15)) == 5)
        #expect(limiter.retryAfter(address: "10.0.0.1", at: start + .seconds(20)) == nil)
        // One more failure fills the bucket again; a full minute later it is empty.
        limiter.recordFailure(address: "10.0.0.1", at: start + .seconds(20))
        #expect(limiter.retryAfter(address: "10.0.0.1", at: start + .seconds(21)) == 19)
        #expect(limiter.retryAfter(address: "10.0.0.1", at: start + .seconds(80)) == nil)
    }

    @Test func addressesAreCountedApart() {
        let limiter = AuthFailureLimiter(limit: .init(count: 1, period: .seconds(10)))
        limiter.recordFailure(address: "10.0.0.1", at: start)
        #expect(limiter.retryAfter(address: "10.0.0.1", at: start) == 10)
        #expect(limiter.retryAfter(address: "10.0.0.2", at: start) == nil)
    }

    @Test func failuresBeyondTheCountDoNotLengthenTheWait() {
        let limiter = AuthFailureLimiter(limit: .init(count: 2, period: .seconds(10)))
        for _ in 0..<50 { limiter.recordFailure(address: "10.0.0.1", at: start) }
        #expect(limiter.retryAfter(address: "10.0.0.1", at: start) == 5)
    }

    @Test func theLeastRecentlySeenAddressesAreForgottenFirst() {
        let limiter = AuthFailureLimiter(limit: .init(count: 1, period: .seconds(60)), addresses: 2)
        limiter.recordFailure(address: "a", at: start)
        limiter.recordFailure(address: "b", at: start)
        _ = limiter.retryAfter(address: "a", at: start)
        limiter.recordFailure(address: "c", at: start)
        #expect(limiter.retryAfter(address: "a", at: start) != nil)
        #expect(limiter.retryAfter(address: "b", at: start) == nil)
        #expect(limiter.retryAfter(address: "c", at: start) != nil)
    }
}
