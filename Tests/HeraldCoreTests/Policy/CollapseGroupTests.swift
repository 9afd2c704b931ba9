import Foundation
import Testing

@testable import HeraldCore

@Suite struct CollapseGroupTests {
    static let t0 = Fixture.now
    static let window: TimeInterval = 300

    static func item(_ id: String, actor: String = "asha", at offset: TimeInterval = 0) -> CollapsedItem {
        CollapsedItem(
            eventId: id, itemId: "i-\(id)", actor: actor, actorName: actor.capitalized, occurredAt: t0 + offset,
            expiresAt: t0 + offset + 3_600)
    }

    @Test func firstGoesAtOnceFollowersAccumulateOneDigestReplacesIt() {
        var group = CollapseGroup(userId: "u1", key: "msg:42")
        #expect(
            mutate(&group) { $0.eventArrived(Self.item("e1"), window: Self.window, at: Self.t0) }
                == .sendFirst(collapseId: "msg:42"))
        #expect(group.phase == .open)
        #expect(
            mutate(&group) { $0.eventArrived(Self.item("e2", actor: "ben"), window: Self.window, at: Self.t0 + 10) }
                == .scheduleDigest(at: Self.t0 + 300))
        #expect(
            mutate(&group) { $0.eventArrived(Self.item("e3", actor: "cy"), window: Self.window, at: Self.t0 + 20) }
                == .accumulated(until: Self.t0 + 300))
        #expect(mutate(&group) { $0.windowClosed(at: Self.t0 + 299) } == .notYet(until: Self.t0 + 300))
        guard case .sendDigest(let summary) = group.windowClosed(at: Self.t0 + 300) else {
            Issue.record("expected a digest")
            return
        }
        #expect(summary.count == 3)
        #expect(summary.folded == 2)
        #expect(summary.collapseId == "msg:42")
        #expect(summary.actorNames == ["Cy", "Ben", "Asha"])
        #expect(summary.actorCount == 3)
        #expect(group.phase == .idle)
        // The next event starts a new burst.
        #expect(
            mutate(&group) { $0.eventArrived(Self.item("e4"), window: Self.window, at: Self.t0 + 301) }
                == .sendFirst(collapseId: "msg:42"))
    }

    @Test func aWindowWithOnlyTheFirstClosesWithNothing() {
        var group = CollapseGroup(userId: "u1", key: "k")
        _ = group.eventArrived(Self.item("e1"), window: Self.window, at: Self.t0)
        #expect(mutate(&group) { $0.windowClosed(at: Self.t0 + 300) } == .nothing)
        #expect(group.phase == .idle)
        #expect(mutate(&group) { $0.windowClosed(at: Self.t0 + 900) } == .nothing)
    }

    @Test func heldBackEventsOpenAnAccumulatingBurstWithoutAFirst() {
        var group = CollapseGroup(userId: "u1", key: "k")
        #expect(
            mutate(&group) { $0.eventHeldBack(Self.item("e1"), window: Self.window, at: Self.t0) }
                == .scheduleDigest(at: Self.t0 + 300))
        #expect(
            mutate(&group) { $0.eventArrived(Self.item("e2"), window: Self.window, at: Self.t0 + 1) }
                == .accumulated(until: Self.t0 + 300))
        guard case .sendDigest(let summary) = group.windowClosed(at: Self.t0 + 300) else {
            Issue.record("expected a digest")
            return
        }
        #expect(summary.count == 2 && summary.folded == 2)
        #expect(summary.actorCount == 1)
    }

    @Test func aLateTimerIsCaughtUpByTheNextEvent() {
        var group = CollapseGroup(userId: "u1", key: "k")
        _ = group.eventArrived(Self.item("e1"), window: Self.window, at: Self.t0)
        _ = group.eventArrived(Self.item("e2"), window: Self.window, at: Self.t0 + 5)
        // The timer did not fire; an event after the window end folds in and closes the burst.
        guard
            case .sendDigest(let summary) = group.eventArrived(Self.item("e3"), window: Self.window, at: Self.t0 + 400)
        else {
            Issue.record("expected the overdue digest")
            return
        }
        #expect(summary.count == 3)
        #expect(group.phase == .idle)
        #expect(mutate(&group) { $0.windowClosed(at: Self.t0 + 500) } == .nothing)
    }

    @Test func anOpenGroupPastItsWindowStartsANewBurst() {
        var group = CollapseGroup(userId: "u1", key: "k")
        _ = group.eventArrived(Self.item("e1"), window: Self.window, at: Self.t0)
        #expect(group.startsBurst(at: Self.t0 + 400))
        #expect(
            mutate(&group) { $0.eventArrived(Self.item("e2"), window: Self.window, at: Self.t0 + 400) }
                == .sendFirst(collapseId: "k"))
        #expect(group.windowEndsAt == Self.t0 + 700)
    }

    /// A digest says when its burst began: when the burst's first event was decided, not when it went (a deferred
    /// one goes at the end of quiet hours), so it names the notifications it summarises.
    @Test func aDigestNamesTheInstantItsBurstsFirstEventWasDecided() throws {
        var group = CollapseGroup(userId: "u1", key: "k")
        _ = group.eventArrived(Self.item("e1"), window: Self.window, at: Self.t0 + 3_600, decidedAt: Self.t0)
        #expect(group.startedAt == Self.t0)
        _ = group.eventArrived(Self.item("e2"), window: Self.window, at: Self.t0 + 3_610, decidedAt: Self.t0 + 10)
        guard case .sendDigest(let summary) = group.windowClosed(at: Self.t0 + 3_900) else {
            Issue.record("expected a digest")
            return
        }
        #expect(summary.startedAt == Self.t0)
        #expect(group.startedAt == nil)
        // A burst that begins held back, and one that follows an open burst past its window, begin anew.
        _ = group.eventHeldBack(Self.item("e3"), window: Self.window, at: Self.t0 + 4_000)
        #expect(group.startedAt == Self.t0 + 4_000)
        _ = group.windowClosed(at: Self.t0 + 4_300)
        _ = group.eventArrived(Self.item("e4"), window: Self.window, at: Self.t0 + 5_000)
        _ = group.eventArrived(Self.item("e5"), window: Self.window, at: Self.t0 + 5_400, decidedAt: Self.t0 + 5_390)
        #expect(group.startedAt == Self.t0 + 5_390)
        // It is stored with the group; a group stored before groups remembered it knows no start.
        let stored = try JSONDecoder().decode(CollapseGroup.self, from: JSONEncoder().encode(group))
        #expect(stored.startedAt == Self.t0 + 5_390)
        var old = try JSONSerialization.jsonObject(with: JSONEncoder().encode(group)) as! [String: Any]
        old["started_at"] = nil
        let older = try JSONSerialization.data(withJSONObject: old)
        #expect(try JSONDecoder().decode(CollapseGroup.self, from: older).startedAt == nil)
    }

    @Test func longKeysGetAStableCollapseIdWithinSixtyFourBytes() {
        let key = "msg:" + String(repeating: "ż", count: 80)
        let group = CollapseGroup(userId: "u1", key: key)
        #expect(group.collapseId.utf8.count <= 64)
        #expect(group.collapseId == CollapseGroup(userId: "u2", key: key).collapseId)
    }

    @Test func countsEqualTheEventsFoldedAndSent() {
        // Property: over random event streams and timer firings, every event is either sent first or folded into
        // exactly one digest; a digest counts its folded events plus at most the one first event it replaces.
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<300 {
            var group = CollapseGroup(userId: "u1", key: "k")
            var clock: TimeInterval = 0
            var events = 0
            var sentFirst = 0
            var digested = 0
            func handle(_ action: CollapseGroup.Action) {
                if case .sendFirst = action { sentFirst += 1 }
                if case .sendDigest(let summary) = action {
                    #expect((0...1).contains(summary.count - summary.folded))
                    #expect(summary.folded > 0)
                    digested += summary.folded
                }
            }
            for index in 0..<Int.random(in: 1...60, using: &generator) {
                clock += Double.random(in: 0...200, using: &generator)
                events += 1
                let item = Self.item("e\(index)", actor: ["a", "b", "c"].randomElement(using: &generator)!, at: clock)
                let heldBack = Int.random(in: 0..<5, using: &generator) == 0
                handle(
                    heldBack
                        ? group.eventHeldBack(item, window: Self.window, at: Self.t0 + clock)
                        : group.eventArrived(item, window: Self.window, at: Self.t0 + clock))
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    handle(group.windowClosed(at: Self.t0 + clock + Double.random(in: 0...400, using: &generator)))
                }
            }
            handle(group.windowClosed(at: Self.t0 + clock + 10_000))
            #expect(sentFirst + digested == events)
            #expect(group.phase == .idle)
        }
    }
}
