import Foundation
import Testing

@testable import HeraldPostgres

/// How the recipients' state is read, against the real schema.
@Suite("Recipients' state")
struct RecipientStateRepositoryTests {
    /// A full batch of recipients out of many users is read by index lookups, not by scanning the users and their
    /// devices: with the planner's default page costs both statements chose sequential scans here.
    @Test func aFullBatchOfRecipientsIsReadByIndexLookups() throws {
        let connection = try freshConnection()
        _ = try Migrator(folder: DecisionRepositoryUserTests.sqlFolder).migrate(on: connection)
        for sql in [
            "INSERT INTO users (id, locale, time_zone, badge, created_at, updated_at) SELECT 'u' || g, 'en', 'UTC', true, now(), now() FROM generate_series(1, 20000) g",
            """
            INSERT INTO devices (installation_id, user_id, platform, token, environment, app_id, active, last_registered_at, created_at)
            SELECT 'i' || g, 'u' || (g % 20000 + 1), 'fcm', 'token-' || g, 'production', 'com.example.app', true, now(), now()
            FROM generate_series(1, 40000) g
            """,
            "ANALYZE users", "ANALYZE devices",
        ] {
            _ = try connection.query(Query(unsafeSQL: sql))
        }
        let batch = PipelineArray((1...500).map { "u\($0 * 37)" })
        let statements: [(Query, [(any PostgresEncodable)?])] = [
            (RecipientStateRepository.lockProfiles, [batch]), (RecipientStateRepository.pieces, [batch, Date()]),
        ]
        for (query, parameters) in statements {
            let plan = try connection.query(Query(unsafeSQL: "EXPLAIN " + query.sql), parameters)
                .map { try $0.string(0) }.joined(separator: "\n")
            #expect(!plan.contains("Seq Scan on users") && !plan.contains("Seq Scan on devices"), "\(plan)")
        }
        let snapshot = try RecipientStateRepository.load(
            (1...500).map { "u\($0 * 37)" }, now: Date(), lock: false, on: connection)
        #expect(snapshot.profiles.count == 500 && snapshot.devices.values.map(\.count).reduce(0, +) == 1000)
    }
}
