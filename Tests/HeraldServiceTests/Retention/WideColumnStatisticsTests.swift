import Foundation
import HeraldPostgres
import HeraldTestSupport
import Testing

@testable import HeraldService

/// The wide columns no statement filters by carry no planner statistics in any partition, old or new, and every
/// other column keeps the default (`0024_wide_columns_without_statistics.sql`).
@Suite struct WideColumnStatisticsTests {
    /// Each partition of a table with each of its columns whose statistics target is not the default.
    static let targets = Query(
        name: "test.statistics_targets",
        sql: """
            SELECT c.relname::text, coalesce(string_agg(a.attname || '=' || a.attstattarget, ',' ORDER BY a.attname)
                                             FILTER (WHERE a.attstattarget <> -1), '')
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            WHERE i.inhparent::regclass::text = $1
            GROUP BY 1 ORDER BY 1
            """)

    @Test func partitionsMadeBeforeAndAfterTheMigrationSkipOnlyTheWideColumns() async throws {
        try await offCooperativePool {
            let conninfo = try TemporaryPostgres.freshDatabase()
            let connection = try PostgresConnection(conninfo: conninfo)
            let migrations = try Migrator(folder: TestService.sqlFolder).migrations
            // Partitions made before the migration are set by it; those made after, by the partition maker.
            try Migrator(migrations: migrations.filter { $0.version <= 23 }).migrate(on: connection)
            let today = try RetentionRepository.today(on: connection)
            try RetentionRepository.ensurePartitions(from: today, through: today + 1, on: connection)
            try Migrator(migrations: migrations).migrate(on: connection)
            try RetentionRepository.ensurePartitions(from: today + 2, through: today + 3, on: connection)
            let expected = [
                "events": "body_hash=0,document=0", "deliveries": "body=0,detail=0,headers=0",
                "decisions": "delivery_ids=0,detail=0", "digests": "",
            ]
            for (table, want) in expected {
                let rows = try connection.query(Self.targets, [table]).map { (try $0.string(0), try $0.string(1)) }
                #expect(rows.count >= 4, "\(table): \(rows.map(\.0))")
                for (name, targets) in rows { #expect(targets == want, "\(name)") }
            }
            // The queues' vacuum settings are still set on the new partitions.
            let options = try connection.query(QueuePartitionVacuumTests.options, ["events"]).map { try $0.string(1) }
            #expect(options.allSatisfy { $0 == QueuePartitionVacuumTests.tuned })
        }
    }

    /// ANALYZE of a partition with rows leaves no statistics for the wide columns and keeps them for the others.
    @Test func analyzeSkipsTheWideColumns() async throws {
        try await offCooperativePool {
            let conninfo = try TemporaryPostgres.freshDatabase()
            let connection = try PostgresConnection(conninfo: conninfo)
            try Migrator(folder: TestService.sqlFolder).migrate(on: connection)
            let today = try RetentionRepository.today(on: connection)
            try RetentionRepository.ensurePartitions(from: today, through: today, on: connection)
            try connection.executeScript(
                Query(
                    unsafeSQL: """
                        INSERT INTO event_keys (source, id, body_hash, accepted_at)
                        SELECT 's', 'e' || n, repeat('a', 64), now() FROM generate_series(1, 200) n;
                        INSERT INTO events (seq, source, id, category_id, body_hash, document, accepted_at)
                        SELECT seq, source, id, 'c', body_hash, jsonb_build_object('n', id), accepted_at FROM event_keys;
                        ANALYZE events;
                        """))
            let analyzed = try connection.query(
                Query(
                    unsafeSQL: """
                        SELECT string_agg(DISTINCT attname, ',' ORDER BY attname) FROM pg_stats
                        WHERE tablename LIKE 'events_%' AND attname IN ('document', 'body_hash', 'seq', 'source')
                        """)
            ).single().string(0)
            #expect(analyzed == "seq,source")
        }
    }
}
