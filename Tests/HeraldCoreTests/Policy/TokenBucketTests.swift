import Foundation
import Testing

@testable import HeraldCore

@Suite struct TokenBucketTests {
    static let t0 = Fixture.now

    @Test func spendsCapacityThenRefusesThenRefillsSmoothly() {
        var bucket = TokenBucket(capacity: 3, windowSeconds: 60, at: Self.t0)
        for _ in 0..<3 { #expect(mutate(&bucket) { $0.take(at: Self.t0) }) }
        #expect(!mutate(&bucket) { $0.take(at: Self.t0) })
        // One token per 20 s.
        #expect(!mutate(&bucket) { $0.take(at: Self.t0 + 19) })
        #expect(mutate(&bucket) { $0.take(at: Self.t0 + 20) })
        #expect(!mutate(&bucket) { $0.take(at: Self.t0 + 21) })
        // Never above capacity, however long the pause.
        #expect(bucket.tokens(at: Self.t0 + 86_400) == 3)
    }

    @Test func timeNeverRunsBackwards() {
        var bucket = TokenBucket(capacity: 2, windowSeconds: 60, at: Self.t0)
        #expect(mutate(&bucket) { $0.take(at: Self.t0 + 10) })
        #expect(mutate(&bucket) { $0.take(at: Self.t0 + 10) })
        // A worker with a slow clock neither refills nor moves the bucket back.
        #expect(!mutate(&bucket) { $0.take(at: Self.t0) })
        #expect(bucket.updatedAt == Self.t0 + 10)
    }

    @Test func reservationGoesIntoDebtAndSchedulesInOrder() {
        var bucket = TokenBucket(capacity: 3, windowSeconds: 3_600, at: Self.t0)
        for _ in 0..<3 { _ = bucket.take(at: Self.t0) }
        let first = bucket.reserve(at: Self.t0)
        let second = bucket.reserve(at: Self.t0)
        #expect(first == Self.t0 + 1_200)
        #expect(second == Self.t0 + 2_400)
        #expect(!mutate(&bucket) { $0.take(at: Self.t0 + 2_399) })
    }

    @Test func adjustsToAChangedRuleKeepingTheFillLevel() {
        var bucket = TokenBucket(capacity: 10, windowSeconds: 60, at: Self.t0)
        for _ in 0..<4 { _ = bucket.take(at: Self.t0) }
        let smaller = bucket.adjusted(to: .init(count: 3, windowSeconds: 60))
        #expect(smaller.capacity == 3 && smaller.tokens == 3)
        let larger = bucket.adjusted(to: .init(count: 20, windowSeconds: 60))
        #expect(larger.capacity == 20 && larger.tokens == 6)
    }

    @Test func admitsAtMostTheRuleOverAnyWindow() {
        // Property: over random arrival times, no sliding window of `window` seconds admits more than
        // capacity + (window * rate) events.
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<50 {
            let capacity = Int.random(in: 1...10, using: &generator)
            let window = Int.random(in: 10...600, using: &generator)
            var bucket = TokenBucket(capacity: capacity, windowSeconds: window, at: Self.t0)
            var admitted: [TimeInterval] = []
            var clock: TimeInterval = 0
            for _ in 0..<500 {
                clock += Double.random(in: 0...Double(window) / 5, using: &generator)
                if bucket.take(at: Self.t0 + clock) { admitted.append(clock) }
            }
            for (index, start) in admitted.enumerated() {
                let inWindow = admitted[index...].prefix { $0 < start + TimeInterval(window) }.count
                #expect(inWindow <= capacity * 2)
            }
        }
    }

    @Test func rateLimiterSpendsFromBothOrNeither() {
        var limiter = RateLimiter(
            categoryRule: .init(count: 5, windowSeconds: 60), categoryBucket: nil,
            userRule: .init(count: 2, windowSeconds: 60), userBucket: nil, at: Self.t0)
        #expect(mutate(&limiter) { $0.admit(at: Self.t0) })
        #expect(mutate(&limiter) { $0.admit(at: Self.t0) })
        #expect(!mutate(&limiter) { $0.admit(at: Self.t0) })
        // The user bucket refused, so the category bucket kept its tokens.
        #expect(limiter.categoryBucket?.tokens == 3)
        #expect(limiter.userBucket?.tokens == 0)
    }

    @Test func rateLimiterWithoutRulesAlwaysAdmits() {
        var limiter = RateLimiter(
            categoryRule: nil, categoryBucket: nil, userRule: nil, userBucket: nil, at: Self.t0)
        var admitted = 0
        for _ in 0..<1_000 where limiter.admit(at: Self.t0) { admitted += 1 }
        #expect(admitted == 1_000)
        #expect(limiter.categoryBucket == nil && limiter.userBucket == nil)
    }
}
