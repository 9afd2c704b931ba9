import Foundation
import HeraldPostgres
import HeraldTestSupport
import Testing

@testable import HeraldService

/// The recipient counters every delivered event updates leave room on their pages, so that an update can stay on
/// its row's page (a HOT update, no index entry) (`0025_recipient_counters_leave_room.sql`, and since
/// `0035_recipient_counters_in_one_row.sql` the one row of each user's counters).
@Suite struct RecipientCountersRoomTests {
    @Test func theCountersLeaveRoomOnTheirPages() async throws {
        try await offCooperativePool {
            let connection = try PostgresConnection(conninfo: try TemporaryPostgres.freshDatabase())
            try Migrator(folder: TestService.sqlFolder).migrate(on: connection)
            let options = try connection.query(
                Query(
                    unsafeSQL: """
                        SELECT relname::text, array_to_string(reloptions, ',') FROM pg_class
                        WHERE relname IN ('recipient_counters', 'rate_buckets') ORDER BY 1
                        """)
            ).map { "\(try $0.string(0)):\(try $0.string(1))" }
            #expect(
                options == [
                    "rate_buckets:fillfactor=70", "recipient_counters:fillfactor=70",
                ])
        }
    }

    /// Updating every freshly written unread count once: a good share stays on its page, where a table filled to
    /// the brim (the same rows in a copy without the setting) moves every row.
    @Test func anUpdateOfAFreshCountStaysOnItsPage() async throws {
        try await offCooperativePool {
            let connection = try PostgresConnection(conninfo: try TemporaryPostgres.freshDatabase())
            try Migrator(folder: TestService.sqlFolder).migrate(on: connection)
            try connection.executeScript(
                Query(
                    unsafeSQL: """
                        CREATE TABLE packed_counts (LIKE recipient_counters INCLUDING ALL);
                        INSERT INTO recipient_counters (user_id, unread, unread_updated_at, feed_position)
                            SELECT 'u' || n, 0, now(), n FROM generate_series(1, 1000) n;
                        INSERT INTO packed_counts SELECT * FROM recipient_counters;
                        """))
            let hot = try connection.transaction { connection in
                try connection.executeScript(
                    Query(
                        unsafeSQL: """
                            UPDATE recipient_counters SET unread = unread + 1, unread_updated_at = now();
                            UPDATE packed_counts SET unread = unread + 1, unread_updated_at = now();
                            """))
                return try connection.query(
                    Query(
                        unsafeSQL: """
                            SELECT relname::text, n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables
                            WHERE relname IN ('packed_counts', 'recipient_counters') ORDER BY 1
                            """)
                ).map { (try $0.string(0), try $0.int(1), try $0.int(2)) }
            }
            #expect(hot.map(\.1) == [1_000, 1_000])
            let packed = try #require(hot.first { $0.0 == "packed_counts" })
            let roomy = try #require(hot.first { $0.0 == "recipient_counters" })
            #expect(packed.2 < 50, "a packed page has no room for a new version: \(packed.2) HOT")
            #expect(roomy.2 >= 300, "\(roomy.2) of 1,000 updates stayed on their page")
        }
    }
}
