import Foundation
import HeraldPostgres
import HeraldTestSupport
import Testing

@testable import HeraldService

/// The unique index of queued coalescing rows holds only rows with a key, and still allows one queued row per key
/// (`0026_coalesce_index_only_keyed_rows.sql`).
@Suite struct CoalesceIndexTests {
    @Test func onlyRowsWithAKeyAreIndexedAndAKeyStaysUniqueWhileQueued() async throws {
        try await offCooperativePool {
            // Migrated as `herald migrate` does, which also makes the days' partitions.
            let conninfo = try TemporaryPostgres.freshDatabase()
            _ = try MigrateCommand.apply(try Migrator(folder: TestService.sqlFolder), conninfo: conninfo)
            let connection = try PostgresConnection(conninfo: conninfo)
            let definition = try connection.query(
                Query(unsafeSQL: "SELECT pg_get_indexdef('deliveries_coalesce_queued'::regclass)")
            ).single().string(0)
            #expect(definition.hasSuffix("WHERE ((state = 'queued'::text) AND (coalesce_key IS NOT NULL))"))

            let insert = Query(
                unsafeSQL: """
                    INSERT INTO deliveries (id, user_id, installation_id, platform, environment, token, kind, headers,
                                            body, coalesce_key, priority, created_at, available_at, expires_at)
                    VALUES ($1, 'u1', 'i1', 'apns', 'production', 't', 'background', '{}', '{}', $2, 5, $3, $3,
                            $3::timestamptz + interval '1 day')
                    """)
            let now = Date()
            for id in ["plain-1", "plain-2", "keyed-1"] {
                _ = try connection.execute(insert, [id, id.hasPrefix("keyed") ? "k1" : nil, now])
            }
            #expect(throws: PostgresError.self) { _ = try connection.execute(insert, ["keyed-2", "k1", now]) }
            // Once the first row left the queue, the key may queue again.
            _ = try connection.execute(
                Query(unsafeSQL: "UPDATE deliveries SET state = 'sent', finished_at = $1 WHERE id = 'keyed-1'"), [now])
            _ = try connection.execute(insert, ["keyed-2", "k1", now])
        }
    }
}
