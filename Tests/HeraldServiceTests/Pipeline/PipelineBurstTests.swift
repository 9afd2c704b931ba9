import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

@Suite("Pipeline: bursts by category", .serialized)
struct PipelineBurstTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)
    static let rule = PipelineHarness.threadBurst

    /// Sends one event of thread `t` and decides it; returns its outcome for its (only) recipient.
    func send(
        _ id: String, category: String = "chat.message", user: String = "u1", to harness: PipelineHarness
    )
        async throws -> String
    {
        try await harness.decideMessage(id, category: category, user: user)
        return try await harness.sql(
            "SELECT d.outcome FROM decisions d JOIN events e ON e.seq = d.event_seq WHERE e.id = $1", [id]
        ).single().string(0)
    }

    /// Two categories with the same collapse template keep apart bursts: turning one off at the close of its
    /// window does not take the other's folded events with it.
    @Test func aMessageBurstIsNotLostWhenMentionsOfTheSameThreadAreTurnedOff() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory(collapse: Self.rule))
        try await harness.category(PipelineHarness.chatCategory(id: "chat.mention", collapse: Self.rule))
        try await harness.user("u1")
        try await harness.device("phone", user: "u1", platform: .apns)
        var outcomes: [String] = []
        for (id, category) in [("a1", "chat.message"), ("b1", "chat.mention"), ("a2", "chat.message")] {
            outcomes.append(try await send(id, category: category, to: harness))
            harness.clock.advance(5)
        }
        #expect(outcomes == ["delivered", "delivered", "collapsed"])
        let off = await harness.send(.put, "/v1/users/u1/preferences/chat.mention", json: #"{"setting":"off"}"#)
        #expect(off.status.rawValue < 300)
        harness.clock.advance(60)
        try await harness.decideAll()
        let digest = try await harness.sql("SELECT category_id, outcome, event_count, notification_id FROM digests")
            .single()
        #expect(try digest.string("category_id") == "chat.message")
        #expect(try digest.string("outcome") == "delivered")
        #expect(try digest.int("event_count") == 2)
        let pushed = try await harness.sql(
            "SELECT collapse_id FROM deliveries WHERE notification_id = $1", [try digest.string("notification_id")])
        #expect(try pushed.map { try $0.string(0) } == ["msg:t"], "it replaces the burst's first push in place")
    }

    /// Bursts running when groups came to be keyed by category (`0030_collapse_groups_keyed_by_category.sql`) go
    /// on under the new key: the one with a timer folds the next event and sends its digest with its collapse id,
    /// and the one whose first push went out (no timer) folds the next event too.
    @Test func burstsStoredUnderTheOldKeyGoOnAfterTheMigration() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory(collapse: Self.rule))
        for user in ["u1", "u2"] {
            try await harness.user(user)
            try await harness.device("phone-" + user, user: user, platform: .apns)
        }
        #expect(try await send("a1", to: harness) == "delivered")
        #expect(try await send("c1", user: "u2", to: harness) == "delivered")
        harness.clock.advance(5)
        #expect(try await send("a2", to: harness) == "collapsed")
        // As the service stored them before: the rendered key alone.
        let prefix = "burst:chat.message:"
        _ = try await harness.sql(
            """
            UPDATE collapse_groups SET key = substr(key, length($1) + 1),
                state = jsonb_set(state, '{key}', to_jsonb(substr(key, length($1) + 1)))
            """, [prefix])
        _ = try await harness.sql("UPDATE timers SET key = substr(key, length($1) + 1)", [prefix])
        #expect(try await harness.count("SELECT count(*) FROM collapse_groups WHERE key = 'msg:t'") == 2)

        let migration = try #require(try Migrator(folder: TestService.sqlFolder).migrations.first { $0.version == 30 })
        try await harness.database { connection in
            try connection.transaction { try $0.executeScript(Query(unsafeSQL: migration.sql)) }
        }
        let groups = try await harness.sql("SELECT user_id, key, state ->> 'key' FROM collapse_groups ORDER BY 1")
        #expect(try groups.map { try $0.string(0) } == ["u1", "u2"])
        #expect(try groups.allSatisfy { try $0.string(1) == prefix + "msg:t" && $0.string(2) == prefix + "msg:t" })
        #expect(try await harness.sql("SELECT key FROM timers").single().string(0) == prefix + "msg:t")

        harness.clock.advance(5)
        #expect(try await send("a3", to: harness) == "collapsed")
        #expect(try await send("c2", user: "u2", to: harness) == "collapsed")
        harness.clock.advance(60)
        try await harness.decideAll()
        let digests = try await harness.sql(
            """
            SELECT g.user_id, g.outcome, g.event_count, d.collapse_id
            FROM digests g JOIN deliveries d ON d.notification_id = g.notification_id ORDER BY 1
            """)
        #expect(try digests.map { try $0.string("user_id") } == ["u1", "u2"])
        #expect(try digests.map { try $0.int("event_count") } == [3, 2])
        #expect(
            try digests.allSatisfy { try $0.string("outcome") == "delivered" && $0.string("collapse_id") == "msg:t" })
    }

    /// A burst of chat.message a1, a2, a3 in thread `t` for u1's phone: a1 went out, a2 and a3 were folded.
    func burstOfThree(at begin: Date? = nil) async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: begin ?? start)
        try await harness.collapsingChat(devices: [("phone", .apns)])
        var outcomes: [String] = []
        for id in ["a1", "a2", "a3"] {
            outcomes.append(try await send(id, to: harness))
            harness.clock.advance(5)
        }
        #expect(outcomes == ["delivered", "collapsed", "collapsed"])
        return harness
    }

    /// A burst the user read before its window closed sends no digest: it would bring back as new what was read.
    @Test func aBurstReadBeforeItsWindowClosesSendsNoDigest() async throws {
        let harness = try await burstOfThree()
        defer { harness.close() }
        #expect(await harness.send(.post, "/v1/users/u1/read", json: #"{"thread_id":"t"}"#).status == .ok)
        harness.clock.advance(60)
        try await harness.decideAll()
        #expect(try await harness.count("SELECT count(*) FROM digests") == 0)
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE kind = 'alert'") == 1)
        #expect(try await harness.count("SELECT count(*) FROM timers") == 0)
    }

    /// A burst read in part before its window closed: the digest counts the messages left unread.
    @Test func aBurstReadInPartCountsWhatIsLeftUnread() async throws {
        let harness = try await burstOfThree()
        defer { harness.close() }
        #expect(await harness.send(.post, "/v1/users/u1/read", json: #"{"item_ids":["a1","a2"]}"#).status == .ok)
        harness.clock.advance(60)
        try await harness.decideAll()
        let digest = try await harness.sql("SELECT event_count, notification_id FROM digests").single()
        #expect(try digest.int("event_count") == 3)
        let body = try await harness.sql(
            "SELECT body FROM deliveries WHERE notification_id = $1", [try digest.string("notification_id")]
        ).single().string(0)
        #expect(body.contains("1 new message\""), "\(body)")
        #expect(body.contains("\"badge\":1"), "\(body)")
    }

    /// The clock is finer than the microsecond a decision's time is stored to: the burst's first notification, read
    /// back from its row, is still the burst's own.
    @Test func aBurstReadWholeSendsNoDigestWhenTheClockIsFinerThanAMicrosecond() async throws {
        let harness = try await burstOfThree(at: start.addingTimeInterval(0.123_456_2))
        defer { harness.close() }
        #expect(await harness.send(.post, "/v1/users/u1/read", json: #"{"thread_id":"t"}"#).status == .ok)
        harness.clock.advance(60)
        try await harness.decideAll()
        #expect(try await harness.count("SELECT count(*) FROM digests") == 0)
    }
}
