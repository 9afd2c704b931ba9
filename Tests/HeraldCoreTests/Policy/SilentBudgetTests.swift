import Foundation
import Testing

@testable import HeraldCore

@Suite struct SilentBudgetTests {
    static let t0 = Fixture.now

    @Test func threePerHourThenCoalescedIntoTheNextToken() {
        var budget = SilentBudget(installationId: "d1", perHour: 3, at: Self.t0)
        for index in 0..<3 {
            #expect(mutate(&budget) { $0.backgroundPushRequested(collapseIds: ["c\(index)"], at: Self.t0) } == .sendNow)
        }
        guard
            case .coalesced(let at, let ids, let key) = budget.backgroundPushRequested(collapseIds: ["c3"], at: Self.t0)
        else {
            Issue.record("expected coalescing")
            return
        }
        #expect(at == Self.t0 + 1_200)
        #expect(ids == ["c3"])
        // Further requests merge into the same pending push, keeping its slot and key.
        let merged = budget.backgroundPushRequested(collapseIds: ["c4", "c3"], at: Self.t0 + 60)
        #expect(merged == .coalesced(availableAt: at, collapseIds: ["c3", "c4"], coalesceKey: key))
        // Once the slot has passed, the pending push is gone; the next request waits for a fresh token.
        guard
            case .coalesced(let later, let fresh, let newKey) = budget.backgroundPushRequested(
                collapseIds: ["c5"], at: at + 1)
        else {
            Issue.record("expected coalescing after the slot")
            return
        }
        #expect(later > at)
        #expect(fresh == ["c5"])
        #expect(newKey != key)
    }

    @Test func neverDropsARequest() {
        // Property: every requested id is either sent now or present in the pending push returned.
        var generator = SeededGenerator(seed: 3)
        var budget = SilentBudget(installationId: "d1", perHour: 3, at: Self.t0)
        var clock: TimeInterval = 0
        var sentNow = 0
        for index in 0..<2_000 {
            clock += Double.random(in: 0...900, using: &generator)
            let id = "c\(index)"
            switch budget.backgroundPushRequested(collapseIds: [id], at: Self.t0 + clock) {
            case .sendNow: sentNow += 1
            case .coalesced(let at, let ids, _):
                #expect(ids.contains(id))
                #expect(at >= Self.t0 + clock)
            }
        }
        // Never more than the budget allows: 3 at start plus 3 per hour elapsed.
        #expect(sentNow <= 3 + Int(clock / 1_200) + 1)
    }

    @Test func aStoredBudgetFollowsAChangedAllowance() {
        var budget = SilentBudget(installationId: "d1", perHour: 3, at: Self.t0)
        _ = budget.backgroundPushRequested(collapseIds: ["c0"], at: Self.t0)
        var raised = budget.adjusted(perHour: 10)
        #expect(raised.bucket.capacity == 10 && raised.bucket.tokens == 2)
        // The fill level carries over; the refill is the new one: ten an hour, one every six minutes.
        let sent = (1...3).map { raised.backgroundPushRequested(collapseIds: ["c\($0)"], at: Self.t0 + 360) }
        #expect(sent == [.sendNow, .sendNow, .sendNow])
        let lowered = budget.adjusted(perHour: 1)
        #expect(lowered.bucket.capacity == 1 && lowered.bucket.tokens == 1)
        #expect(budget.adjusted(perHour: 3) == budget)
    }
}
