import Foundation
import HeraldPostgres
import Testing

/// The checks the events table keeps on what the service writes into it.
@Suite struct EventRowChecksTests {
    /// The body hash is 64 lowercase hexadecimal digits, the SHA-256 the ingest stores; anything else is refused.
    @Test func theBodyHashIsSixtyFourLowercaseHexDigits() async throws {
        let harness = try await PipelineHarness.make(start: Date())
        defer { harness.close() }
        let good = String(repeating: "0123456789abcdef", count: 4)
        let bad = [
            String(good.dropLast()), good + "0", good.uppercased(), String(good.dropLast()) + "g",
            String(good.dropLast()) + "\n", "",
        ]
        func store(_ id: String, _ hash: String) async throws {
            _ = try await harness.sql(
                """
                INSERT INTO events (source, id, category_id, body_hash, document, accepted_at)
                VALUES ('chat', $1, 'chat.message', $2, '{}', now())
                """, [id, hash])
        }
        try await store("good", good)
        for (index, hash) in bad.enumerated() {
            await #expect(throws: PostgresError.self, "\(hash.debugDescription)") {
                try await store("bad-\(index)", hash)
            }
        }
        #expect(try await harness.count("SELECT count(*) FROM events") == 1)
        // The check names its length and character class, with no bounded repetition for the regex engine to expand.
        let definition = try await harness.sql(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'events_body_hash_format' AND conrelid = 'events'::regclass"
        ).single().string(0)
        #expect(definition.contains("octet_length(body_hash) = 64") && !definition.contains("{"), "\(definition)")
    }
}
