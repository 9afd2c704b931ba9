import Foundation
import HeraldCore
import HeraldPostgres
import Testing

@testable import HeraldService

/// Reads on an in-memory store: what a read covers, the unread count it lowers and what it tells the other devices.
@Suite("Read application")
struct ReadApplicationTests {
    let now = DecisionFixture.now

    @Test func anItemReadCoversTheNotificationAndLowersTheUnreadCountOnce() throws {
        let store = DecisionFixture.store(devices: [("phone", .apns), ("tablet", .fcm)])
        let message = store.accept(DecisionFixture.message("m1", item: "msg-1"))
        let processor = DecisionFixture.processor()
        _ = try processor.run(on: store, now: now)
        #expect(store.tables.unread["u1"] == 1)
        let queued = store.tables.deliveries.count

        let later = now + 30
        let read = store.accept(DecisionFixture.read("r1", items: ["msg-1"], device: "phone"))
        _ = try processor.run(on: store, now: later)
        let first = try #require(store.decisions(of: read).first)
        #expect(first.outcome == Outcome.read.rawValue)
        #expect(first.detail == "items_read=1")
        #expect(first.badge == 0)
        #expect(store.decisions(of: message).first?.readAt == later)
        #expect(store.tables.unread["u1"] == 0)
        // The tablet, not the phone the read happened on, is told.
        let told = store.tables.deliveries.dropFirst(queued)
        #expect(!told.isEmpty)
        #expect(told.allSatisfy { $0.delivery.installationId == "tablet" })
        #expect(Set(told.map(\.id)) == Set(first.deliveryIds))

        let again = store.accept(DecisionFixture.read("r2", items: ["msg-1"], device: "phone"))
        _ = try processor.run(on: store, now: later + 30)
        #expect(store.decisions(of: again).first?.detail == "items_read=0")
        #expect(store.decisions(of: message).first?.readAt == later)
        #expect(store.tables.unread["u1"] == 0)
    }

    /// A notification decided earlier in the same batch is not stored yet, and a read covers it all the same.
    @Test func aReadCoversANotificationOfTheSameBatch() throws {
        let store = DecisionFixture.store()
        let message = store.accept(DecisionFixture.message("m1", item: "msg-1"))
        let read = store.accept(DecisionFixture.read("r1", items: ["msg-1"]))
        let report = try DecisionFixture.processor().run(on: store, now: now)
        #expect(report.eventsDone == 2)
        #expect(store.decisions(of: message).first?.readAt == now)
        #expect(store.decisions(of: read).first?.detail == "items_read=1")
        #expect(store.tables.unread["u1"] == 0)
    }

    @Test func aReadForAnUnknownUserIsSuppressedUnknownUser() throws {
        let store = DecisionFixture.store()
        let read = store.accept(DecisionFixture.read("r1", user: "ghost", items: ["msg-1"]))
        _ = try DecisionFixture.processor().run(on: store, now: now)
        #expect(store.decisions(of: read).map(\.outcome) == [Outcome.suppressedUnknownUser.rawValue])
    }

    /// Reads marked in an abandoned transaction are not kept: the notification is still unread afterwards.
    @Test func anAbandonedReadMarksNothing() throws {
        let store = DecisionFixture.store()
        store.accept(DecisionFixture.message("m1", item: "msg-1"))
        _ = try DecisionFixture.processor().run(on: store, now: now)
        let request = ReadScope(userId: "u1", itemIds: ["msg-1"], threadId: nil)
        var book = RecipientBook(try store.recipients(["u1"], now: now, lock: true))
        var output = BatchOutput()
        let outcome = try ReadApplication.apply(
            request, decider: DecisionFixture.decider(), book: &book, output: &output, store: store, now: now,
            eventSource: nil, eventId: nil)
        #expect(outcome.itemsRead == 1 && outcome.unreadCount == 0)
        store.abandon()
        let scope = ReadScope(userId: "u1", itemIds: ["msg-1"], threadId: nil)
        #expect(try store.readCandidates(for: scope, sharing: []).count == 1)
        #expect(store.tables.unread["u1"] == 1)
    }
}
