import Foundation
import Testing

@testable import HeraldCore

@Suite struct DeciderReadTests {
    static let devices = [
        Fixture.device("phone", platform: .apns), Fixture.device("tablet", platform: .apns),
        Fixture.device("android", platform: .fcm), Fixture.device("web", platform: .webpush),
    ]

    @Test func aReadWithdrawsFromTheOtherDevicesWithTheNewBadge() {
        let state = Fixture.state(devices: Self.devices, unread: 5)
        let notice = ReadNotice(userId: "u1", collapseIds: ["msg:42"], itemsRead: 2, originInstallationId: "phone")
        let result = Fixture.decider().read(notice, state: state, now: Fixture.now)
        #expect(result.unreadCount == 3)
        #expect(!result.deliveries.contains { $0.installationId == "phone" })
        let withdrawals = result.deliveries.filter { $0.kind == .withdraw }
        #expect(withdrawals.map(\.installationId).sorted() == ["android", "tablet", "web"])
        #expect(withdrawals.allSatisfy { $0.priority == 5 && $0.availableAt == Fixture.now })
        let tablet = withdrawals.first { $0.installationId == "tablet" }!
        #expect(tablet.headers["apns-push-type"] == "background" && tablet.headers["apns-priority"] == "5")
        let root = Fixture.parse(tablet.body)!
        #expect(root["withdraw"] as? [String] == ["msg:42"])
        #expect(root["badge"] as? Int == 3)
        // Apple devices also get a badge-only alert the system applies without waking the app.
        let badge = result.deliveries.first { $0.kind == .background && $0.installationId == "tablet" }!
        #expect((Fixture.parse(badge.body)?["aps"] as? [String: Int]) == ["badge": 3])
        #expect(badge.coalesceKey == "badge:tablet")
        let web = withdrawals.first { $0.installationId == "web" }!
        #expect(web.headers["Topic"] == CollapseIdentifier.webPushTopic(for: "msg:42"))
        #expect(result.silentBudgets.keys.sorted() == ["android", "tablet", "web"])
    }

    /// What was read is not pushed any more: every device's pushes of the read notifications that are still waiting
    /// (held for quiet hours, say) are stopped, the device the read happened on included.
    @Test func aReadStopsThePushesOfItsNotificationsThatHaveNotGoneOut() {
        let state = Fixture.state(devices: Self.devices, unread: 2)
        let notice = ReadNotice(
            userId: "u1", collapseIds: ["msg:42"], itemsRead: 2, originInstallationId: "phone",
            notificationIds: ["n1", "n2"])
        let result = Fixture.decider().read(notice, state: state, now: Fixture.now)
        #expect(result.stoppedNotificationIds == ["n1", "n2"])
        let nothing = Fixture.decider().read(
            ReadNotice(userId: "u1", collapseIds: [], itemsRead: 0), state: state, now: Fixture.now)
        #expect(nothing.stoppedNotificationIds.isEmpty)
    }

    @Test func theUnreadCountNeverGoesNegative() {
        let result = Fixture.decider().read(
            ReadNotice(userId: "u1", collapseIds: [], itemsRead: 50), state: Fixture.state(unread: 3), now: Fixture.now)
        #expect(result.unreadCount == 0)
    }

    @Test func beyondTheSilentBudgetWithdrawalsAreCoalescedNotDroppedNorUpgraded() {
        var state = Fixture.state(devices: [Fixture.device("tablet")], unread: 10)
        let decider = Fixture.decider()
        var results: [ReadResult] = []
        for index in 0..<6 {
            let notice = ReadNotice(userId: "u1", collapseIds: ["c\(index)"], itemsRead: 1)
            let result = decider.read(notice, state: state, now: Fixture.now + Double(index))
            state.unreadCount = result.unreadCount
            state.silentBudgets = result.silentBudgets
            results.append(result)
        }
        let withdrawals = results.map { $0.deliveries.first { $0.kind == .withdraw }! }
        #expect(withdrawals.prefix(3).allSatisfy { $0.coalesceKey == nil && $0.availableAt < Fixture.now + 10 })
        let late = withdrawals.suffix(3)
        #expect(Set(late.map(\.coalesceKey)).count == 1)
        #expect(late.allSatisfy { $0.availableAt == Fixture.now + 1_200 && $0.priority == 5 })
        // The last version of the coalesced push names every id held back, and the newest badge.
        let last = Fixture.parse(late.last!.body)!
        #expect(last["withdraw"] as? [String] == ["c3", "c4", "c5"])
        #expect(last["badge"] as? Int == 4)
    }

    @Test func theSilentBudgetIsTheConfiguredOneAndStoredBudgetsFollowIt() {
        var state = Fixture.state(devices: [Fixture.device("phone"), Fixture.device("tablet")], unread: 20)
        func withdrawals(_ perHour: Int, _ indices: Range<Int>, at now: Date) -> [Delivery] {
            let decider = Fixture.decider(DeciderConfig(userRateLimit: nil, silentPushesPerHour: perHour))
            return indices.map { index in
                let notice = ReadNotice(
                    userId: "u1", collapseIds: ["c\(index)"], itemsRead: 1, originInstallationId: "phone")
                let result = decider.read(notice, state: state, now: now)
                state.unreadCount = result.unreadCount
                state.silentBudgets = result.silentBudgets
                return result.deliveries.first { $0.kind == .withdraw }!
            }
        }
        let one = withdrawals(1, 0..<2, at: Fixture.now)
        #expect(one.map { $0.coalesceKey == nil } == [true, false])
        #expect(one[1].availableAt == Fixture.now + 3_600)
        // Raised to five an hour: the stored budget adopts the new allowance at once. Held to one, the first of
        // these would have waited for the next token.
        let later = Fixture.now + 3_601
        let five = withdrawals(5, 2..<6, at: later)
        #expect(five.allSatisfy { $0.coalesceKey == nil && $0.availableAt == later })
        #expect(state.silentBudgets["tablet"]?.bucket.capacity == 5)
        #expect(withdrawals(5, 6..<7, at: later)[0].coalesceKey != nil)
    }
}
