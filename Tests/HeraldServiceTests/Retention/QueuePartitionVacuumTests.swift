import Foundation
import HeraldPostgres
import HeraldTestSupport
import Testing

@testable import HeraldService

/// The day partitions of the two queues are vacuumed by a fixed count of dead rows, so that a claim never walks a
/// fifth of a day's decided events in its partial index (`0015_queue_partition_vacuum.sql`).
@Suite struct QueuePartitionVacuumTests {
    static let options = Query(
        name: "test.partition_options",
        sql: """
            SELECT c.relname::text, coalesce(array_to_string(c.reloptions, ','), '')
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent::regclass::text = $1 ORDER BY 1
            """)
    static let tuned =
        "autovacuum_vacuum_scale_factor=0,autovacuum_vacuum_threshold=20000,autovacuum_vacuum_cost_delay=0"

    @Test func partitionsOfEventsAndDeliveriesOldAndNewAreTunedAndTheOthersAreNot() async throws {
        try await offCooperativePool {
            let conninfo = try TemporaryPostgres.freshDatabase()
            let connection = try PostgresConnection(conninfo: conninfo)
            let migrations = try Migrator(folder: TestService.sqlFolder).migrations
            // Partitions made before the migration are tuned by it; those made after, by the partition maker.
            try Migrator(migrations: migrations.filter { $0.version <= 14 }).migrate(on: connection)
            let today = try RetentionRepository.today(on: connection)
            try RetentionRepository.ensurePartitions(from: today, through: today + 1, on: connection)
            try Migrator(migrations: migrations).migrate(on: connection)
            try RetentionRepository.ensurePartitions(from: today + 2, through: today + 3, on: connection)
            for table in ["events", "deliveries"] {
                let rows = try connection.query(Self.options, [table]).map { (try $0.string(0), try $0.string(1)) }
                #expect(rows.count >= 4, "\(table): \(rows.map(\.0))")
                for (name, options) in rows { #expect(options == Self.tuned, "\(name)") }
            }
            for table in ["decisions", "digests"] {
                let rows = try connection.query(Self.options, [table]).map { try $0.string(1) }
                #expect(!rows.isEmpty && rows.allSatisfy(\.isEmpty), "\(table)")
            }
        }
    }
}
