import Foundation
import HeraldCore
import HeraldPostgres
import Testing

@testable import HeraldService

/// The batch processor on an in-memory store: what one batch decides, writes and hands back.
@Suite("Batch processor")
struct BatchProcessorTests {
    let now = DecisionFixture.now

    @Test func aNewEventForAUserWithTwoDevicesGivesOneDecisionAndTwoDeliveries() throws {
        let store = DecisionFixture.store(devices: [("phone", .apns), ("tablet", .fcm)])
        let seq = store.accept(DecisionFixture.message("m1", item: "msg-1"))
        let report = try DecisionFixture.processor().run(on: store, now: now)

        #expect(report.events == 1 && report.eventsDone == 1)
        let decisions = store.decisions(of: seq)
        #expect(decisions.map(\.outcome) == [Outcome.delivered.rawValue])
        #expect(decisions.first?.badge == 1)
        #expect(decisions.first?.deliveryIds.count == 2)
        let rows = store.tables.deliveries
        #expect(rows.map(\.delivery.platform).sorted { $0.rawValue < $1.rawValue } == [.apns, .fcm])
        #expect(Set(rows.map(\.id)) == Set(decisions.first?.deliveryIds ?? []))
        #expect(rows.allSatisfy { $0.eventSource == "chat" && $0.eventId == "m1" })
        #expect(store.tables.unread["u1"] == 1)
        #expect(store.event(seq)?.decided == true)
        #expect(store.event(seq)?.decidedAt == now)
        #expect(!store.isOpen)
    }

    @Test func anEventForAnUnknownUserIsSuppressedUnknownUser() throws {
        let store = DecisionFixture.store()
        let seq = store.accept(DecisionFixture.message("m1", users: ["ghost"]))
        _ = try DecisionFixture.processor().run(on: store, now: now)
        #expect(store.decisions(of: seq).map(\.outcome) == [Outcome.suppressedUnknownUser.rawValue])
        #expect(store.tables.deliveries.isEmpty)
        #expect(store.event(seq)?.decided == true)
    }

    @Test func aBurstFoldsAndItsTimerGivesTheDigestWhenDue() throws {
        let store = DecisionFixture.store(collapse: true)
        for index in 0..<5 { store.accept(DecisionFixture.message("burst-\(index)", thread: "t1")) }
        let processor = DecisionFixture.processor()
        _ = try processor.run(on: store, now: now)
        let outcomes = store.tables.decisions.map(\.outcome)
        #expect(outcomes == [Outcome.delivered.rawValue] + Array(repeating: Outcome.collapsed.rawValue, count: 4))
        #expect(store.tables.deliveries.count == 1)
        let timer = try #require(store.tables.timers.values.first)
        #expect(store.tables.timers.count == 1)

        // Before the window closes there is nothing to do; once it has, the timer fires once.
        #expect(!(try processor.run(on: store, now: timer.dueAt - 1)).didWork)
        let fired = try processor.run(on: store, now: timer.dueAt)
        #expect(fired.timers == 1)
        #expect(store.tables.digests.map(\.eventCount) == [5])
        #expect(store.tables.digests.first?.outcome == Outcome.delivered.rawValue)
        #expect(store.tables.timers.isEmpty)
        #expect(store.tables.deliveries.count == 2)
        #expect(Set(store.tables.deliveries.map(\.delivery.collapseId)).count == 1)
        #expect(store.tables.deliveries.last?.delivery.bodyText.contains("5 new messages") == true)
        #expect(!(try processor.run(on: store, now: timer.dueAt + 60)).didWork)
    }

    /// A stored document that no longer decodes is decided for no one, with an outcome of its own.
    @Test func anUndecodableStoredDocumentIsRejectedUndecodable() throws {
        let store = DecisionFixture.store()
        let bad = store.accept(
            document: #"{"source":"chat","id":"bad"}"#, source: "chat", id: "bad", category: "chat.message")
        let good = store.accept(DecisionFixture.message("good"))
        let report = try DecisionFixture.processor().run(on: store, now: now)

        #expect(report.undecodable.map(\.id) == ["bad"])
        #expect(report.outcomes[Outcome.rejectedUndecodable.rawValue] == 1)
        #expect(store.event(bad)?.decided == true)
        #expect(store.event(bad)?.outcome == Outcome.rejectedUndecodable.rawValue)
        #expect(store.decisions(of: bad).isEmpty)
        #expect(store.decisions(of: good).count == 1)
        #expect(store.event(good)?.outcome == nil)
        #expect(store.tables.deliveries.count == 1)
    }

    /// A batch that fails before its commit leaves no trace, and its events are the next batch's.
    @Test func aBatchThatFailsToCommitIsAbandonedAndItsEventsAreClaimedAgain() throws {
        let store = DecisionFixture.store()
        let seq = store.accept(DecisionFixture.message("m1"))
        let processor = DecisionFixture.processor()
        store.failNextCommit = true
        #expect(throws: InMemoryDecisionStore.Failure.self) { try processor.run(on: store, now: now) }
        #expect(!store.isOpen)
        #expect(store.tables.decisions.isEmpty && store.tables.deliveries.isEmpty)
        #expect(store.event(seq)?.decided == false)

        let retried = try processor.run(on: store, now: now)
        #expect(retried.eventsDone == 1)
        #expect(store.decisions(of: seq).count == 1)
        #expect(!(try processor.run(on: store, now: now)).didWork)
    }

    @Test func aBatchWithNothingToDoCommitsNothing() throws {
        let store = DecisionFixture.store()
        let report = try DecisionFixture.processor().run(on: store, now: now)
        #expect(!report.didWork && !report.full)
        #expect(!store.isOpen)
    }

    /// A topic is decided one page of subscribers per batch; an explicit recipient who is also subscribed and the
    /// actor are each decided once.
    @Test func aTopicIsDecidedPageByPageOncePerSubscriber() throws {
        let store = DecisionFixture.store()
        let members = ["m1", "m2", "m3", "m4", "m5"]
        for member in members { store.user(member) }
        store.subscribe(members, to: "room:1")
        var event = DecisionFixture.message("t1", users: ["m3"], topic: "room:1")
        event.actor = "m5"
        let seq = store.accept(event)
        var limits = BatchLimits()
        limits.topicPage = 2
        let processor = DecisionFixture.processor(limits)
        var batches = 0
        while try processor.run(on: store, now: now).didWork { batches += 1 }

        #expect(batches == 3)
        let decisions = store.decisions(of: seq)
        #expect(decisions.map(\.userId).sorted() == members)
        #expect(decisions.filter { $0.outcome == Outcome.suppressedActor.rawValue }.map(\.userId) == ["m5"])
        #expect(store.event(seq)?.claim.recipientsDecided == 5)
        #expect(store.event(seq)?.decided == true)
    }
}
