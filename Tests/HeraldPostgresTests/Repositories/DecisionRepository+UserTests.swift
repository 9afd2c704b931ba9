import Foundation
import Testing

@testable import HeraldPostgres

/// A user's decisions, newest first, across day partitions, against the real schema.
@Suite("Decisions of a user")
struct DecisionRepositoryUserTests {
    /// The repository's `sql/` folder.
    static let sqlFolder: URL = {
        if let dir = ProcessInfo.processInfo.environment["HERALD_SQL_DIR"] { return URL(fileURLWithPath: dir) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("sql")
    }()

    /// A migrated database with day partitions from today (by the real clock) to two days on, and users ana, ben
    /// and cy (who has no decision).
    struct Schema {
        let connection: PostgresConnection
        let today: Int
        let now: Date

        init() throws {
            connection = try freshConnection()
            _ = try Migrator(folder: DecisionRepositoryUserTests.sqlFolder).migrate(on: connection)
            now = Date()
            today = Int(now.timeIntervalSince1970 / 86_400)
            _ = try connection.query(
                Query(name: "t.partitions", sql: "SELECT herald_partitions_ensure($1, $2)"), [today, today + 2])
            for user in ["ana", "ben", "cy"] {
                _ = try connection.execute(
                    Query(name: "t.user", sql: "INSERT INTO users (id, created_at, updated_at) VALUES ($1, $2, $2)"),
                    [user, now])
            }
        }

        /// The seq of the `counter`th event of day `today + dayOffset`.
        func seq(day dayOffset: Int, _ counter: Int64) -> Int64 { (Int64(today + dayOffset) << 44) + counter }

        /// Stores event `source/id` at `seq` and one decision of it for each of `users`.
        func decide(
            _ seq: Int64, source: String = "chat", id: String, category: String = "chat.message", users: [String],
            outcome: String = "delivered", detail: String? = nil, deliverAt: Date? = nil,
            notificationId: String? = nil, deliveryIds: [String] = []
        ) throws {
            _ = try connection.execute(
                Query(
                    name: "t.event",
                    sql: """
                        INSERT INTO events (seq, source, id, category_id, body_hash, document, accepted_at)
                        VALUES ($1, $2, $3, $4, repeat('a', 64), '{}', $5)
                        """), [seq, source, id, category, now])
            for user in users {
                _ = try connection.execute(
                    Query(
                        name: "t.decision",
                        sql: """
                            INSERT INTO decisions (event_seq, user_id, outcome, detail, deliver_at, notification_id,
                                                   delivery_ids, decided_at)
                            VALUES ($1, $2, $3, $4, $5, $6, string_to_array($7, ','), $8)
                            """),
                    [
                        seq, user, outcome, detail, deliverAt, notificationId, deliveryIds.joined(separator: ","),
                        now.addingTimeInterval(Double(seq & 0xFFFF)),
                    ])
            }
        }
    }

    @Test("Newest first across day partitions, a page at a time, only the user's own")
    func paging() throws {
        let schema = try Schema()
        // Two events a day over three days; ben shares some of them and has one of his own.
        var expected: [String] = []
        for day in 0...2 {
            for counter in Int64(1)...2 {
                let id = "m-\(day)-\(counter)"
                try schema.decide(schema.seq(day: day, counter), id: id, users: ["ana", "ben"])
                expected.insert(id, at: 0)
            }
        }
        try schema.decide(schema.seq(day: 1, 3), id: "ben-only", users: ["ben"])

        var seen: [String] = []
        var before = Int64.max
        var pages = 0
        while true {
            let page = try #require(
                try DecisionRepository.decisions(userId: "ana", before: before, limit: 4, on: schema.connection))
            pages += 1
            seen += page.records.map(\.eventId)
            guard page.hasMore, let last = page.records.last else { break }
            before = last.eventSeq
        }
        #expect(seen == expected)
        #expect(pages == 2)
        let ben = try #require(
            try DecisionRepository.decisions(userId: "ben", before: .max, limit: 100, on: schema.connection))
        #expect(ben.records.count == 7)
        #expect(ben.records.map(\.eventId).prefix(3) == ["m-2-2", "m-2-1", "ben-only"])
        #expect(!ben.hasMore)
    }

    @Test("Every member of a row is mapped; an unknown user is nil, a user without decisions an empty page")
    func mapping() throws {
        let schema = try Schema()
        let until = schema.now.addingTimeInterval(3_600).rounded
        try schema.decide(
            schema.seq(day: 0, 1), source: "shop", id: "promo-1", category: "promo", users: ["ana"],
            outcome: "suppressed.preference", detail: "user")
        try schema.decide(
            schema.seq(day: 0, 2), id: "m-1", users: ["ana"], outcome: "deferred.quiet_hours", deliverAt: until,
            notificationId: "n-1", deliveryIds: ["d-1", "d-2"])
        let page = try #require(
            try DecisionRepository.decisions(userId: "ana", before: .max, limit: 20, on: schema.connection))
        #expect(page.records.count == 2)
        let deferred = page.records[0]
        #expect(deferred.eventSource == "chat" && deferred.eventId == "m-1" && deferred.categoryId == "chat.message")
        #expect(deferred.outcome == "deferred.quiet_hours" && deferred.detail == nil)
        #expect(deferred.deliverAt == until)
        #expect(deferred.notificationId == "n-1" && deferred.deliveries == 2)
        #expect(deferred.decidedAt.timeIntervalSince(schema.now) > 0)
        let suppressed = page.records[1]
        #expect(suppressed.eventSource == "shop" && suppressed.eventId == "promo-1" && suppressed.categoryId == "promo")
        #expect(suppressed.outcome == "suppressed.preference" && suppressed.detail == "user")
        #expect(suppressed.deliverAt == nil && suppressed.notificationId == nil && suppressed.deliveries == 0)

        #expect(
            try DecisionRepository.decisions(userId: "nobody", before: .max, limit: 20, on: schema.connection) == nil)
        let empty = try #require(
            try DecisionRepository.decisions(userId: "cy", before: .max, limit: 20, on: schema.connection))
        #expect(empty.records.isEmpty && !empty.hasMore)
    }

    @Test("The query reads the user's index and leaves older days unopened once the page is full")
    func plan() throws {
        let schema = try Schema()
        for day in 0...2 {
            for counter in Int64(1)...5 {
                try schema.decide(schema.seq(day: day, counter), id: "m-\(day)-\(counter)", users: ["ana", "ben"])
            }
        }
        _ = try schema.connection.execute(Query(name: "t.analyze", sql: "ANALYZE decisions"))
        // Small partitions would be scanned whole; the plan on a big table is the index walk, and this forces it.
        _ = try schema.connection.execute(Query(name: "t.noseq", sql: "SET enable_seqscan = off"))
        let explain = Query(
            unsafeSQL: "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " + DecisionRepository.forUser.sql)
        let plan = try schema.connection.query(explain, ["ana", Int64.max, 3]).map { try $0.string(0) }
            .joined(separator: "\n")
        #expect(plan.contains("decisions_\(Self.dayName(schema.today + 2))_user_id_event_seq_idx"), "\(plan)")
        #expect(plan.contains("never executed"), "\(plan)")
        #expect(!plan.contains("Sort"), "\(plan)")
    }

    static func dayName(_ day: Int) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd"
        return formatter.string(from: Date(timeIntervalSince1970: Double(day) * 86_400))
    }
}

extension Date {
    /// To whole seconds, as a round trip through the database keeps it exactly.
    fileprivate var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded()) }
}
