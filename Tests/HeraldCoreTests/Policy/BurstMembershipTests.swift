import Foundation
import Testing

@testable import HeraldCore

struct BurstMembershipTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000.123_456_2)
    static let key = Decider.burstKey(categoryId: "chat.message", collapseKey: "msg:t")

    static func notification(
        _ id: String, after seconds: TimeInterval = 1, collapseId: String = "c", category: String = "chat.message",
        seq: Int64 = 0
    ) -> BurstNotification {
        BurstNotification(
            notificationId: id, collapseId: collapseId, categoryId: category,
            decidedAt: start.addingTimeInterval(seconds), eventSeq: seq, itemId: "item-" + id)
    }

    static func burst(known: Set<String>? = ["first"]) -> BurstMembership {
        BurstMembership(key: key, collapseId: "c", startedAt: start, known: known)
    }

    @Test func aNotificationBelongsByCollapseIdCategoryAndTime() {
        let burst = Self.burst()
        #expect(burst.contains(Self.notification("n")))
        #expect(!burst.contains(Self.notification("n", collapseId: "other")))
        #expect(!burst.contains(Self.notification("n", category: "chat.mention")))
        #expect(!burst.contains(Self.notification("n", after: -0.001)))
    }

    /// The stored decision time is rounded to the microsecond; the burst's start keeps finer digits.
    @Test func instantsCompareInWholeMicroseconds() {
        let stored = Date(timeIntervalSince1970: 1_800_000_000.123_456)
        let first = BurstNotification(
            notificationId: "first", collapseId: "c", categoryId: "chat.message", decidedAt: stored)
        #expect(Self.burst().contains(first))
    }

    /// At the instant the burst began, only the notifications it knows are its own; a burst stored before digests
    /// recorded them (`known` nil) takes every one.
    @Test func atTheInstantItBeganOnlyTheKnownBelong() {
        let other = Self.notification("caught-up", after: 0)
        let first = Self.notification("first", after: 0)
        #expect(Self.burst().contains(first))
        #expect(!Self.burst().contains(other))
        #expect(Self.burst(known: nil).contains(other))
        #expect(!Self.burst(known: []).contains(first))
    }

    @Test func aDigestSummarisesItsFirstNotificationsInTheOrderDecided() {
        let candidates = [
            Self.notification("late", after: 9, seq: 1),
            Self.notification("second", after: 0, seq: 7),
            Self.notification("first", after: 0, seq: 5),
            Self.notification("caught-up", after: 0, seq: 4),
            Self.notification("elsewhere", after: 2, category: "chat.mention", seq: 6),
        ]
        let burst = Self.burst(known: ["first", "second"])
        #expect(burst.first(2, of: candidates).map(\.notificationId) == ["first", "second"])
        #expect(burst.first(5, of: candidates).map(\.notificationId) == ["first", "second", "late"])
        #expect(burst.first(0, of: candidates).isEmpty)
    }
}
