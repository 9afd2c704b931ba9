import Foundation
import Testing

@testable import HeraldCore

/// A burst counts the reads of its own notifications while it is open: its digest counts what is left unread.
@Suite struct CollapseGroupReadTests {
    static let t0 = Fixture.now
    static let window: TimeInterval = 300
    static let key = Decider.burstKey(categoryId: "chat.message", collapseKey: "msg:42")

    /// A burst of chat.message whose first went out at `t0` and two more folded into it.
    static func burstOfThree() -> CollapseGroup {
        var group = CollapseGroup(userId: "u1", key: key, collapseId: "msg:42")
        _ = group.eventArrived(CollapseGroupTests.item("e1"), window: window, at: t0, decidedAt: t0)
        _ = group.eventArrived(CollapseGroupTests.item("e2", actor: "ben"), window: window, at: t0 + 10)
        _ = group.eventArrived(CollapseGroupTests.item("e3", actor: "cy"), window: window, at: t0 + 20)
        return group
    }

    /// A read of the notification of `event` (by default the burst's first, e1), decided at `t0 + offset`.
    static func read(
        _ offset: TimeInterval, event: String = "e1", category: String = "chat.message", collapseId: String = "msg:42"
    ) -> ReadNotice.CollapsedRead {
        ReadNotice.CollapsedRead(
            notificationId: NotificationIdentity.notificationId(eventId: event, userId: "u1"), collapseId: collapseId,
            categoryId: category, decidedAt: t0 + offset)
    }

    @Test func aBurstReadWholeClosesWithNoDigest() {
        var group = Self.burstOfThree()
        #expect(mutate(&group) { $0.notificationsRead([Self.read(0), Self.read(10), Self.read(20)]) })
        #expect(mutate(&group) { $0.windowClosed(at: Self.t0 + 300) } == .nothing)
        #expect(group.phase == .idle)
        #expect(group.read == 0, "the next burst starts with nothing read")
    }

    @Test func aBurstReadInPartCountsWhatIsLeft() {
        var group = Self.burstOfThree()
        #expect(mutate(&group) { $0.notificationsRead([Self.read(0)]) })
        #expect(mutate(&group) { $0.notificationsRead([Self.read(10)]) })
        guard case .sendDigest(let summary) = group.windowClosed(at: Self.t0 + 300) else {
            Issue.record("expected a digest")
            return
        }
        #expect(summary.count == 3, "the burst's notifications, by which a receipt of the digest finds them")
        #expect(summary.unread == 1)
    }

    @Test func readsOfOtherNotificationsAreNotTheBurstsOwn() {
        var group = Self.burstOfThree()
        let others = [
            Self.read(-1),  // decided before the burst began
            Self.read(10, category: "chat.mention"),  // the same collapse id, another category's burst
            Self.read(10, collapseId: "msg:43"),
        ]
        #expect(!mutate(&group) { $0.notificationsRead(others) })
        #expect(group.read == 0)
        var idle = CollapseGroup(userId: "u1", key: Self.key, collapseId: "msg:42")
        #expect(!mutate(&idle) { $0.notificationsRead([Self.read(0)]) })
    }

    @Test func theFirstNotificationIsTheBurstsOwnAsStoredToTheMicrosecond() {
        var group = CollapseGroup(userId: "u1", key: Self.key, collapseId: "msg:42")
        let begins = Self.t0.addingTimeInterval(0.123_456_2)
        _ = group.eventArrived(CollapseGroupTests.item("e1"), window: Self.window, at: begins, decidedAt: begins)
        let stored = Self.read(0.123_456)
        #expect(mutate(&group) { $0.notificationsRead([stored]) })
        let before = Self.read(0.123_455)
        #expect(!mutate(&group) { $0.notificationsRead([before]) })
    }

    @Test func aDigestGroupCountsTheReadsOfItsCategory() {
        var group = CollapseGroup(userId: "u1", key: "digest:chat.message", collapseId: "digest")
        _ = group.eventHeldBack(CollapseGroupTests.item("e1"), window: 3_600, at: Self.t0)
        #expect(mutate(&group) { $0.notificationsRead([Self.read(0, collapseId: "digest")]) })
        #expect(mutate(&group) { $0.windowClosed(at: Self.t0 + 3_600) } == .nothing)
    }

    @Test func theCountOfReadsIsKeptWithTheStoredGroup() throws {
        var group = Self.burstOfThree()
        _ = group.notificationsRead([Self.read(0)])
        let stored = try JSONEncoder().encode(group)
        #expect(try JSONDecoder().decode(CollapseGroup.self, from: stored).read == 1)
        var old = try JSONSerialization.jsonObject(with: stored) as? [String: Any] ?? [:]
        old["read"] = nil
        let before = try JSONSerialization.data(withJSONObject: old)
        #expect(try JSONDecoder().decode(CollapseGroup.self, from: before).read == 0)
    }

    @Test func theDigestTextCountsTheUnread() {
        var group = Self.burstOfThree()
        _ = group.notificationsRead([Self.read(0)])
        guard case .sendDigest(let summary) = group.windowClosed(at: Self.t0 + 300) else {
            Issue.record("expected a digest")
            return
        }
        let category = Category(id: "chat.message", name: "Chat")
        let arguments = MessageText.digestArguments(summary, category: category)
        #expect(arguments["count"] == .int(2))
        #expect(arguments["folded"] == .int(2))
    }

    /// One batch decided, at one instant, the event that caught a late burst's digest up and the first of the next
    /// burst: a read of the former is not the new burst's own.
    @Test func aReadOfTheCaughtUpBurstIsNotTheNextBurstsOwn() {
        var group = Self.burstOfThree()
        let batch = Self.t0 + 400
        guard
            case .sendDigest = mutate(
                &group, { $0.eventArrived(CollapseGroupTests.item("x"), window: Self.window, at: batch) })
        else {
            Issue.record("expected the caught-up digest")
            return
        }
        #expect(
            mutate(&group) { $0.eventArrived(CollapseGroupTests.item("y"), window: Self.window, at: batch) }
                == .sendFirst(collapseId: "msg:42"))
        _ = group.eventArrived(CollapseGroupTests.item("z"), window: Self.window, at: batch)
        #expect(!mutate(&group) { $0.notificationsRead([Self.read(400, event: "x")]) })
        #expect(mutate(&group) { $0.notificationsRead([Self.read(400, event: "z")]) })
        guard case .sendDigest(let summary) = group.windowClosed(at: batch + Self.window) else {
            Issue.record("expected a digest")
            return
        }
        #expect(summary.unread == 1)
    }

    /// The batch that began a burst folded more events into it than the burst remembers items (`maxItems`), at
    /// the instant it began: a read of the oldest of them is the burst's own all the same.
    @Test func aBurstKnowsEveryEventItBeganWith() {
        var group = CollapseGroup(userId: "u1", key: Self.key, collapseId: "msg:42")
        let events = (1...CollapseGroup.maxItems + 3).map { "e\($0)" }
        for event in events {
            _ = group.eventArrived(CollapseGroupTests.item(event), window: Self.window, at: Self.t0)
        }
        #expect(group.latestItems.count == CollapseGroup.maxItems)
        #expect(mutate(&group) { $0.notificationsRead([Self.read(0, event: "e2")]) })
        guard case .sendDigest(let summary) = group.windowClosed(at: Self.t0 + Self.window) else {
            Issue.record("expected a digest")
            return
        }
        #expect(summary.unread == events.count - 1)
        #expect(summary.membership?.known?.count == events.count)
    }

    /// A burst stored before groups remembered the events they began with knows its first and latest items.
    @Test func aStoredBurstWithoutItsOpeningEventsKnowsItsFirstAndLatest() throws {
        let encoded = try JSONEncoder().encode(Self.burstOfThree())
        var stored = try JSONDecoder().decode(CollapseGroup.self, from: encoded)
        #expect(stored.openedWith == ["e1"])
        #expect(mutate(&stored) { $0.notificationsRead([Self.read(0)]) })
        var members = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(members.removeValue(forKey: "opened_with") != nil)
        let old = try JSONDecoder().decode(
            CollapseGroup.self, from: try JSONSerialization.data(withJSONObject: members))
        #expect(old.openedWith == nil)
        let known = try #require(old.membership?.known)
        #expect(
            known == Set(["e1", "e2", "e3"].map { NotificationIdentity.notificationId(eventId: $0, userId: "u1") }))
    }
}
