import Foundation
import HeraldPostgres
import Testing

@testable import HeraldCore
@testable import HeraldService

/// The recipients' state during one batch: loaded once, carried from event to event, collected for writing.
@Suite("Recipient book")
struct RecipientBookTests {
    let now = DecisionFixture.now

    @Test func theBookCarriesStateFromOneEventToTheNextWithinABatch() throws {
        let store = DecisionFixture.store()
        let seqs = (1...3).map { store.accept(DecisionFixture.message("s\($0)")) }
        let report = try DecisionFixture.processor().run(on: store, now: now)
        #expect(report.events == 3)
        #expect(seqs.map { store.decisions(of: $0).first?.badge } == [1, 2, 3])
        let positions = seqs.compactMap { store.decisions(of: $0).first?.feedPosition }
        #expect(positions.count == 3 && positions == positions.sorted() && Set(positions).count == 3)
        #expect(store.tables.unread["u1"] == 3)
    }

    @Test func whatTheBookRecordsIsWhatTheNextReaderSees() throws {
        let store = DecisionFixture.store()
        var book = RecipientBook(try store.recipients(["u1", "ghost"], now: now, lock: true))
        #expect(book.knows("u1") && !book.knows("ghost"))
        #expect(book.state(of: "ghost", category: "chat.message") == nil)
        #expect(book.state(of: "u1", category: "chat.message")?.devices.map(\.installationId) == ["phone"])

        book.setUnread(4, for: "u1")
        #expect(book.state(of: "u1", category: "chat.message")?.unreadCount == 4)
        // A count never goes below zero, in the book or in what is written.
        book.setUnread(-2, for: "u1")
        #expect(book.state(of: "u1", category: "chat.message")?.unreadCount == 0)
        #expect(book.write.unread == ["u1": 0])
    }

    @Test func aTimerArmedInTheBatchIsForgottenWhenItFires() throws {
        let store = DecisionFixture.store()
        var book = RecipientBook(try store.recipients(["u1"], now: now, lock: true))
        book.arm(StateChanges.DigestTimer(userId: "u1", key: "msg:t1", categoryId: "chat.message", at: now + 60))
        book.arm(StateChanges.DigestTimer(userId: "u1", key: "msg:t1", categoryId: "chat.message", at: now + 90))
        #expect(book.armed.values.map(\.dueAt) == [now + 90])
        book.disarm(userId: "u1", key: "msg:t1")
        #expect(book.armed.isEmpty)
    }
}
