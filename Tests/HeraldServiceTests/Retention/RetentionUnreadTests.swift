import Foundation
import HeraldPostgres
import Testing

@testable import HeraldService

/// A day of decisions that retention drops takes its unread notifications out of their users' unread counts: a
/// count never keeps a notification that no read can find any more.
@Suite("Retention and unread counts")
struct RetentionUnreadTests {
    /// Stores, on `day`, an event and `user`'s decision about it: a notification that counts unread, read or not.
    static func notification(
        _ harness: PipelineHarness, day: Int, number: Int, user: String, read: Bool
    ) async throws {
        _ = try await harness.sql(
            """
            WITH e AS (
                INSERT INTO events (seq, source, id, category_id, body_hash, document, state, accepted_at, decided_at)
                VALUES (($1::bigint << 44) + $2, 'chat', 'old-' || $1 || '-' || $2, 'chat.message', repeat('a', 64),
                        '{}', 'decided', to_timestamp($1 * 86400.0), to_timestamp($1 * 86400.0))
                RETURNING seq, source, id, body_hash, accepted_at
            ),
            k AS (INSERT INTO event_keys SELECT source, id, seq, body_hash, accepted_at FROM e)
            INSERT INTO decisions (event_seq, user_id, outcome, decided_at, notification_id, item_id, counts_unread,
                                   read_at)
            SELECT seq, $3, 'delivered', accepted_at, 'n-' || id, 'item-' || id, true,
                   CASE WHEN $4 THEN accepted_at END
            FROM e
            """, [day, number, user, read])
    }

    /// Read a user at a time, a chunk holding only a user that no longer exists does not end the reading.
    @Test(arguments: [10_000, 1])
    func droppingADayLowersTheCountsOfItsUnreadNotifications(usersPerChunk: Int) async throws {
        let harness = try await PipelineHarness.make(start: Date())
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        for user in ["u1", "u2", "u3", "u4"] {
            try await harness.user(user)
            try await harness.device("phone-\(user)", user: user)
        }
        // u1 to u3 have been users for 50 days; u4's id was deleted and created again today.
        _ = try await harness.sql(
            "UPDATE users SET created_at = $1 WHERE id <> 'u4'", [harness.clock.now.addingTimeInterval(-50 * 86_400)])
        let today = try await harness.database { try RetentionRepository.today(on: $0) }
        _ = try await harness.database {
            try RetentionRepository.ensurePartitions(from: today - 40, through: today - 1, on: $0)
        }
        // u1: two unread and one read notification 40 days ago, and one unread today. u2: one unread 40 days ago.
        // u3: one unread 10 days ago, inside the retention period.
        try await Self.notification(harness, day: today - 40, number: 1, user: "u1", read: false)
        try await Self.notification(harness, day: today - 40, number: 2, user: "u1", read: false)
        try await Self.notification(harness, day: today - 40, number: 3, user: "u1", read: true)
        try await Self.notification(harness, day: today - 40, number: 4, user: "u2", read: false)
        try await Self.notification(harness, day: today - 10, number: 5, user: "u3", read: false)
        // The first u4's unread notification, from before its id was deleted (before deletions retired them), and
        // one unread notification of today's u4.
        try await Self.notification(harness, day: today - 40, number: 6, user: "u4", read: false)
        // A user deleted since, whose id sorts between u1's and u2's.
        try await Self.notification(harness, day: today - 40, number: 7, user: "u1-gone", read: false)
        _ = try await harness.sql(
            """
            INSERT INTO recipient_counters (user_id, unread, unread_updated_at)
            VALUES ('u1', 2, $1), ('u2', 1, $1), ('u3', 1, $1), ('u4', 1, $1)
            """, [harness.clock.now])
        _ = await harness.send(
            .post, "/v1/events",
            json: PipelineHarness.event(id: "today", item: "item-today", occurredAt: harness.clock.now))
        try await harness.decideAll()
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u1'") == 3)

        harness.clock.advance(5)
        let job = RetentionJob(
            settings: RetentionJob.Settings(retentionDays: 30, unreadChunk: usersPerChunk), pool: harness.context.pool,
            logger: harness.context.logger, metrics: harness.context.metrics, clock: harness.context.clock)
        let report = try await offCooperativePool { try job.runOnce() }
        #expect(report.dropped.contains { $0.hasPrefix("decisions_") })

        let counts = try await harness.sql(
            "SELECT user_id, unread, unread_updated_at FROM recipient_counters ORDER BY user_id")
        #expect(try counts.map { try $0.string(0) } == ["u1", "u2", "u3", "u4"])
        #expect(try counts.map { try $0.int(1) } == [1, 0, 1, 1])
        // Stamped by the drop with the service's clock, 5 s after the last decision wrote them.
        #expect(try counts.prefix(2).allSatisfy { abs(try $0.date(2).timeIntervalSince(harness.clock.now)) < 0.001 })
        // What is left to read is what the count says.
        let read = await harness.send(.post, "/v1/users/u1/read", json: #"{"item_ids":["item-today"]}"#)
        #expect(read.json["unread_count"] == .int(0))
    }
}
