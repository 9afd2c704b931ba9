import Foundation
import Testing

@testable import HeraldPostgres

/// The benchmark's own statements against the real schema: what its latency watcher reads, and at what cost.
@Suite("Benchmark statements")
struct BenchRepositoryTests {
    /// The watcher's poll returns every decided event of its source from the first seq on, across more than one
    /// page and past a seq that never comes, and leaves out pending events and other sources.
    @Test func thePollReadsEveryDecidedEventPastPagesAndGaps() throws {
        let connection = try freshConnection()
        _ = try Migrator(folder: DecisionRepositoryUserTests.sqlFolder).migrate(on: connection)
        let today = Int(Date().timeIntervalSince1970 / 86_400)
        _ = try connection.query(
            Query(unsafeSQL: "SELECT herald_partitions_ensure($1, $2)"), [today - 1, today + 1])
        // 3,000 events: every 7th of another source, every 11th still pending.
        _ = try connection.query(
            Query(
                unsafeSQL: """
                    INSERT INTO events (source, id, category_id, body_hash, document, state, accepted_at, decided_at)
                    SELECT CASE WHEN g % 7 = 0 THEN 'other' ELSE 'watched' END, 'e' || g, 'chat.message',
                        repeat('a', 64), '{}', CASE WHEN g % 11 = 0 THEN 'pending' ELSE 'decided' END, now(),
                        CASE WHEN g % 11 = 0 THEN NULL ELSE now() END
                    FROM generate_series(0, 2999) g ORDER BY g
                    """))
        func seqs(_ sql: String) throws -> [Int] {
            try connection.query(Query(unsafeSQL: sql)).map { try $0.int(0) }
        }
        let first = try seqs("SELECT min(seq) FROM events")[0]
        // A seq in the middle that never comes: the poll must read past it.
        _ = try connection.query(
            Query(unsafeSQL: "DELETE FROM events WHERE seq = (SELECT seq FROM events ORDER BY seq OFFSET 1200 LIMIT 1)")
        )
        let expected = try seqs("SELECT seq FROM events WHERE source = 'watched' AND state = 'decided' ORDER BY seq")
        #expect(try seqs("SELECT count(*) FROM events")[0] == 2_999)

        let seen = try BenchRepository.withGenericPlans(on: connection) {
            try BenchRepository.decidedEvents(source: "watched", from: first, on: connection).map(\.seq)
        }
        #expect(seen == expected)
        #expect(expected.count > 2 * BenchRepository.decidedPage)
        let middle = expected[expected.count / 2]
        let later = try BenchRepository.decidedEvents(source: "watched", from: middle, on: connection)
        #expect(later.map(\.seq) == expected.filter { $0 >= middle })
    }

    /// Inside `withGenericPlans` the poll is planned once for the session, not on every call; outside it the
    /// server goes back to its own choice.
    @Test func thePollKeepsOnePlan() throws {
        let connection = try freshConnection()
        _ = try Migrator(folder: DecisionRepositoryUserTests.sqlFolder).migrate(on: connection)
        let plans = Query(
            unsafeSQL: """
                SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'bench_decided_since'
                """)
        try BenchRepository.withGenericPlans(on: connection) {
            for _ in 0..<8 { _ = try BenchRepository.decidedEvents(source: "watched", from: 1, on: connection) }
        }
        let row = try connection.query(plans).single()
        #expect(try row.int(0) == 8 && row.int(1) == 0)
        #expect(try BenchRepository.setting("plan_cache_mode", on: connection) == "auto")
    }
}
