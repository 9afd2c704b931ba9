import Foundation
import HeraldCore
import Testing

@testable import HeraldPostgres

/// A recipient's unread count, last feed position and user-wide bucket live in one row
/// (`0035_recipient_counters_in_one_row.sql`), written by one upsert that keeps what a batch did not change.
@Suite("Recipients' counters")
struct RecipientCountersTests {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    static func migrated() throws -> PostgresConnection {
        let connection = try freshConnection()
        _ = try Migrator(folder: DecisionRepositoryUserTests.sqlFolder).migrate(on: connection)
        try addUsers(["u1", "u2"], on: connection)
        return connection
    }

    /// Creates the users `ids`, created at `now`.
    static func addUsers(_ ids: [String], on connection: PostgresConnection) throws {
        _ = try connection.query(
            Query(
                unsafeSQL: """
                    INSERT INTO users (id, locale, time_zone, badge, created_at, updated_at)
                    SELECT id, 'en', 'UTC', true, $2, $2 FROM unnest($1::text[]) AS id
                    """), [PipelineArray(ids), now])
    }

    static func write(
        _ change: (inout RecipientStateWrite) -> Void, at now: Date, on connection: PostgresConnection
    )
        throws
    {
        var write = RecipientStateWrite()
        change(&write)
        try connection.transaction { connection in
            _ = try connection.pipeline(try RecipientStateRepository.writeQueries(write, now: now))
        }
    }

    @Test func eachWriteKeepsTheValuesItLeavesOut() throws {
        let connection = try Self.migrated()
        let bucket = TokenBucket(capacity: 5, windowSeconds: 60, at: Self.now)
        try Self.write({ $0.unread["u1"] = 3 }, at: Self.now, on: connection)
        try Self.write({ $0.feedPositions["u1"] = 7 }, at: Self.now + 1, on: connection)
        try Self.write(
            {
                $0.buckets[RecipientStateWrite.Key(userId: "u1", key: RecipientStateRepository.allCategoriesScope)] =
                    bucket
            },
            at: Self.now + 2, on: connection)
        // A lower position never takes a user's positions back.
        try Self.write({ $0.feedPositions["u1"] = 5 }, at: Self.now + 3, on: connection)

        let row = try connection.query(
            Query(
                unsafeSQL: """
                    SELECT unread, unread_updated_at, feed_position, bucket_capacity, bucket_window_seconds,
                           bucket_tokens, bucket_updated_at
                    FROM recipient_counters WHERE user_id = 'u1'
                    """)
        ).single()
        #expect(try row.int(0) == 3)
        #expect(abs(try row.date(1).timeIntervalSince(Self.now)) < 0.001)
        #expect(try row.int64(2) == 7)
        #expect(try row.int(3) == 5 && row.int(4) == 60 && row.double(5) == 5)
        #expect(abs(try row.date(6).timeIntervalSince(Self.now)) < 0.001)

        let snapshot = try RecipientStateRepository.load(["u1", "u2"], now: Self.now, lock: false, on: connection)
        #expect(snapshot.unread["u1"] == 3 && snapshot.feedPositions["u1"] == 7)
        #expect(snapshot.buckets["u1"]?[RecipientStateRepository.allCategoriesScope] == bucket)
        #expect(snapshot.unread["u2"] == nil && snapshot.feedPositions["u2"] == nil && snapshot.buckets["u2"] == nil)
    }

    @Test func aCategorysBucketStaysInTheBucketsTable() throws {
        let connection = try Self.migrated()
        let user = TokenBucket(capacity: 10, windowSeconds: 3_600, at: Self.now)
        let category = TokenBucket(capacity: 2, windowSeconds: 60, at: Self.now)
        try Self.write(
            {
                $0.buckets[RecipientStateWrite.Key(userId: "u2", key: RecipientStateRepository.allCategoriesScope)] =
                    user
                $0.buckets[RecipientStateWrite.Key(userId: "u2", key: "chat")] = category
            }, at: Self.now, on: connection)
        #expect(
            try connection.query(Query(unsafeSQL: "SELECT scope FROM rate_buckets")).map { try $0.string(0) }
                == ["chat"])
        let snapshot = try RecipientStateRepository.load(["u2"], now: Self.now, lock: false, on: connection)
        #expect(snapshot.buckets["u2"] == [RecipientStateRepository.allCategoriesScope: user, "chat": category])
        // The row that holds only a bucket has no unread count and no position to give.
        #expect(snapshot.unread["u2"] == 0 && snapshot.feedPositions["u2"] == nil)
    }

    @Test func aDeletedUserLeavesOnlyItsFeedPosition() throws {
        let connection = try Self.migrated()
        try Self.write(
            {
                $0.unread["u1"] = 2
                $0.feedPositions["u1"] = 9
                $0.buckets[RecipientStateWrite.Key(userId: "u1", key: RecipientStateRepository.allCategoriesScope)] =
                    TokenBucket(capacity: 5, windowSeconds: 60, at: Self.now)
            }, at: Self.now, on: connection)
        _ = try connection.query(Query(unsafeSQL: "DELETE FROM users WHERE id = 'u1'"))
        let row = try connection.query(
            Query(
                unsafeSQL: """
                    SELECT unread, unread_updated_at IS NULL, feed_position, bucket_capacity IS NULL
                    FROM recipient_counters WHERE user_id = 'u1'
                    """)
        ).single()
        #expect(try row.int(0) == 0 && row.bool(1) && row.int64(2) == 9 && row.bool(3))
    }

    /// A user that never had a feed entry has no position to keep: its deletion leaves no row
    /// (`0036_deleted_users_leave_no_empty_counters.sql`), and the rows of zeros earlier deletions left go too.
    @Test func aDeletedUserWithoutAFeedPositionLeavesNoRow() throws {
        let connection = try freshConnection()
        let all = try Migrator(folder: DecisionRepositoryUserTests.sqlFolder).migrations
        _ = try Migrator(migrations: all.filter { $0.version < 36 }).migrate(on: connection)
        try Self.addUsers(["u1", "u2", "u3"], on: connection)
        let bucket = TokenBucket(capacity: 5, windowSeconds: 60, at: Self.now)
        for user in ["u1", "u2", "u3"] {
            try Self.write(
                {
                    $0.unread[user] = 2
                    $0.buckets[
                        RecipientStateWrite.Key(userId: user, key: RecipientStateRepository.allCategoriesScope)] =
                        bucket
                    if user == "u3" { $0.feedPositions[user] = 4 }
                }, at: Self.now, on: connection)
        }
        // Deleted before the migration: its row of zeros stays behind until the migration removes it.
        _ = try connection.query(Query(unsafeSQL: "DELETE FROM users WHERE id = 'u1'"))
        func rows() throws -> [String] {
            try connection.query(
                Query(
                    unsafeSQL:
                        "SELECT user_id || ':' || unread || ':' || feed_position FROM recipient_counters ORDER BY 1")
            ).map { try $0.string(0) }
        }
        #expect(try rows() == ["u1:0:0", "u2:2:0", "u3:2:4"])
        _ = try Migrator(migrations: all).migrate(on: connection)
        #expect(try rows() == ["u2:2:0", "u3:2:4"])
        _ = try connection.query(Query(unsafeSQL: "DELETE FROM users WHERE id IN ('u2', 'u3')"))
        #expect(try rows() == ["u3:0:4"])
    }

    /// A database from before the migration keeps every user's count, position and user-wide bucket; a category's
    /// bucket stays where it was.
    @Test func theMigrationMovesEveryCounterIntoOneRow() throws {
        let connection = try freshConnection()
        let all = try Migrator(folder: DecisionRepositoryUserTests.sqlFolder).migrations
        _ = try Migrator(migrations: all.filter { $0.version < 35 }).migrate(on: connection)
        try Self.addUsers(["u1", "u2", "u3"], on: connection)
        try connection.executeScript(
            Query(
                unsafeSQL: """
                    INSERT INTO unread_counts VALUES ('u1', 4, '2026-11-30T10:00:00Z'), ('u3', 1, '2026-11-30T11:00:00Z');
                    INSERT INTO feed_positions VALUES ('u1', 12), ('u2', 3);
                    INSERT INTO rate_buckets VALUES
                        ('u2', '*', 10, 3600, 2.5, '2026-11-30T12:00:00Z'),
                        ('u2', 'chat', 2, 60, 1, '2026-11-30T12:00:00Z');
                    """))
        _ = try Migrator(migrations: all).migrate(on: connection)
        let rows = try connection.query(
            Query(
                unsafeSQL: """
                    SELECT user_id, unread, coalesce(unread_updated_at::text, '-'), feed_position,
                           coalesce(bucket_capacity || '/' || bucket_window_seconds || '/' || bucket_tokens, '-')
                    FROM recipient_counters ORDER BY user_id
                    """)
        ).map { try "\($0.string(0)) \($0.int(1)) \($0.string(2)) \($0.int64(3)) \($0.string(4))" }
        #expect(
            rows == [
                "u1 4 2026-11-30 10:00:00+00 12 -", "u2 0 - 3 10/3600/2.5", "u3 1 2026-11-30 11:00:00+00 0 -",
            ])
        #expect(
            try connection.query(Query(unsafeSQL: "SELECT user_id || ':' || scope FROM rate_buckets"))
                .map { try $0.string(0) } == ["u2:chat"])
        #expect(
            try connection.query(
                Query(unsafeSQL: "SELECT count(*) FROM pg_class WHERE relname IN ('unread_counts', 'feed_positions')")
            ).single().int(0) == 0)
    }
}
