import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldPostgres
@testable import HeraldService

/// The feed answers inside a push wake: this prints its latency (no timed assertion; figures vary by machine) and
/// checks that the plan is a range scan of the feed index.
@Suite("Client feed latency", .serialized)
struct ClientFeedLatencyTests {
    static let notifications = 10_000
    static let calls = 10_000

    @Test func feedLatencyOnAUserWithTenThousandNotifications() async throws {
        let start = Date(timeIntervalSince1970: 1_796_130_000)
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("heavy")
        _ = try await harness.sql(
            """
            WITH e AS (
                INSERT INTO events (source, id, category_id, body_hash, document, state, accepted_at, decided_at)
                SELECT 'chat', 'e' || n, 'chat.message', repeat('0', 64),
                       jsonb_build_object('source', 'chat', 'id', 'e' || n, 'category', 'chat.message',
                                          'occurred_at', '2026-12-01T10:00:00Z', 'recipients', '["heavy"]'::jsonb,
                                          'item_id', 'i' || n, 'data', jsonb_build_object('text', 'message ' || n)),
                       'decided', $2::timestamptz, $2::timestamptz
                FROM generate_series(1, $1::integer) AS n
                RETURNING seq, id
            )
            INSERT INTO decisions (event_seq, user_id, outcome, notification_id, item_id, counts_unread, decided_at,
                                   feed_seq)
            SELECT seq, 'heavy', 'delivered', md5(id), 'i' || substr(id, 2), true, $2::timestamptz, substr(id, 2)::bigint
            FROM e
            """, [Self.notifications, harness.clock.now])
        _ = try await harness.sql("ANALYZE decisions")
        _ = try await harness.sql("ANALYZE events")
        let plan = try await harness.sql(
            "EXPLAIN "
                + FeedRepository.pageQuery.sql.replacingOccurrences(of: "$1", with: "'heavy'")
                .replacingOccurrences(of: "$2", with: "5000").replacingOccurrences(of: "$3", with: "21")
        ).map { try $0.string(0) }.joined(separator: "\n")
        // Each day partition answers from its copy of the decisions_feed index, merged in feed order.
        #expect(plan.contains("user_id_feed_seq_read_at_idx") && !plan.contains("Seq Scan on decisions"), "\(plan)")

        let token = harness.clientToken("heavy")
        let dispatcher = harness.dispatcher
        let calls = Self.calls
        let total = Int64(Self.notifications)
        let samples = await offCooperativePool { () -> [Double] in
            var generator = SystemRandomNumberGenerator()
            var samples: [Double] = []
            samples.reserveCapacity(calls)
            for _ in 0..<calls {
                // A woken app asks for what is new since its own cursor: somewhere in the history, a page of 20.
                let after = FeedCursor(position: Int64.random(in: 0..<total, using: &generator)).text
                var headers = HTTPHeaders()
                headers.set("Authorization", "Bearer \(token)")
                let request = HTTPRequest(
                    method: .get, target: "/v1/me/feed?limit=20&after=\(after)", headers: headers, body: [])
                let began = ContinuousClock.now
                let response = dispatcher.respond(to: request)
                let elapsed = ContinuousClock.now - began
                guard response.status == .ok else { return [] }
                samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
            }
            return samples
        }
        #expect(samples.count == calls)
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        print(
            String(
                format: "feed latency over %d calls, user with %d notifications, limit 20: p50 %.2f ms, p99 %.2f ms",
                calls, Self.notifications, percentile(0.5), percentile(0.99)))
    }
}
