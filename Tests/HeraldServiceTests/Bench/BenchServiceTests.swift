import Foundation
import Synchronization
import Testing

@testable import HeraldService

@Suite("Benchmark waits")
struct BenchServiceTests {
    @Test func aWaitReturnsOnceItsConditionHolds() throws {
        let polls = Mutex(0)
        try BenchService.wait(
            until: {
                polls.withLock { count in
                    count += 1
                    return count >= 3
                }
            }, timeoutSeconds: 60, failure: { "never" })
        #expect(polls.withLock { $0 } == 3)
    }

    @Test func aWaitThatNeverEndsFailsLoudly() {
        let start = ContinuousClock.now
        #expect {
            try BenchService.wait(until: { false }, timeoutSeconds: 0.05) { "bench: 500 events were not decided" }
        } throws: { error in
            (error as? ServiceStartError)?.message == "bench: 500 events were not decided"
        }
        #expect(ContinuousClock.now - start >= .milliseconds(50))
    }

    @Test func aConditionThatFailsEndsTheWait() {
        struct Unreachable: Error {}
        #expect(throws: Unreachable.self) {
            try BenchService.wait(until: { throw Unreachable() }, timeoutSeconds: 60) { "never" }
        }
    }
}
