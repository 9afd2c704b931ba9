import Foundation
import Testing

@testable import HeraldPostgres

/// A batch's decisions are stored alike by the unnest insert of small batches and by the COPY of large ones.
@Suite("Decisions stored")
struct DecisionRepositoryTests {
    static func records(_ schema: DecisionRepositoryUserTests.Schema, counterBase: Int64) -> [DecisionRecord] {
        let now = schema.now
        return [
            DecisionRecord(
                eventSeq: schema.seq(day: 0, counterBase + 1), userId: "ana", outcome: "delivered",
                detail: "tab\there, back\\slash, \"quoted\", line\nbreak, ünïcode", deliverAt: now + 60,
                notificationId: "n1", collapseId: "c1", badge: 3, deliveryIds: ["d1", "d2"], itemId: "item",
                threadId: "thread", countsUnread: true, decidedAt: now, readAt: now + 5, feedPosition: 42),
            DecisionRecord(
                eventSeq: schema.seq(day: 0, counterBase + 2), userId: "ben", outcome: "suppressed.preference",
                detail: nil, deliverAt: nil, notificationId: nil, collapseId: nil, badge: nil, deliveryIds: [],
                itemId: nil, threadId: nil, countsUnread: false, decidedAt: now),
        ]
    }

    /// Every column of a stored decision, as text, with the seq's counter in place of the seq.
    static func stored(_ schema: DecisionRepositoryUserTests.Schema, counterBase: Int64) throws -> [String] {
        try schema.connection.query(
            Query(
                name: "t.stored",
                sql: """
                    SELECT concat_ws('|', (event_seq & 17592186044415) - $1, user_id, outcome, detail, deliver_at,
                                     notification_id, collapse_id, badge, delivery_ids, item_id, thread_id,
                                     counts_unread, decided_at, read_at, feed_seq)
                    FROM decisions WHERE (event_seq & 17592186044415) > $1 AND (event_seq & 17592186044415) <= $1 + 2
                    ORDER BY event_seq
                    """), [counterBase]
        ).map { try $0.string(0) }
    }

    @Test func theCopyStoresWhatTheInsertStores() throws {
        let schema = try DecisionRepositoryUserTests.Schema()
        let decided = schema.now + 1
        try schema.connection.transaction { connection in
            let insert = try #require(
                DecisionRepository.insertQuery(Self.records(schema, counterBase: 0), now: decided))
            _ = try connection.pipeline([insert])
            try DecisionRepository.copy(Self.records(schema, counterBase: 10), now: decided, on: connection)
        }
        let inserted = try Self.stored(schema, counterBase: 0)
        #expect(inserted.count == 2)
        #expect(inserted.first?.contains("line\nbreak, ünïcode") == true && inserted.first?.contains("{d1,d2}") == true)
        #expect(try Self.stored(schema, counterBase: 10) == inserted)
    }

    /// The primary key still refuses a second decision for the same recipient when it comes by COPY.
    @Test func aSecondDecisionOfARecipientFailsTheCopy() throws {
        let schema = try DecisionRepositoryUserTests.Schema()
        try DecisionRepository.copy(Self.records(schema, counterBase: 0), now: schema.now, on: schema.connection)
        #expect(throws: PostgresError.self) {
            try DecisionRepository.copy(
                Self.records(schema, counterBase: 0), now: schema.now, on: schema.connection)
        }
    }
}
