import Foundation
import HeraldPostgres

/// The raw write rate of PostgreSQL for the rows the pipeline writes per event — a decision, one queue row per
/// device, the event marked decided — in transactions of one batch, by COPY and one UPDATE, with no decision logic.
enum BenchLimit {
    static let copyDeliveries = Query(
        name: "bench_copy_deliveries",
        sql: """
            COPY deliveries (id, notification_id, event_source, event_id, user_id, installation_id, platform,
                             environment, token, kind, headers, body, priority, created_at, available_at, expires_at)
            FROM STDIN
            """)
    static let copyDecisions = Query(
        name: "bench_copy_decisions",
        sql: """
            COPY decisions (event_seq, user_id, outcome, notification_id, delivery_ids, decided_at) FROM STDIN
            """)
    static let markDecided = Query(
        name: "bench_mark_decided",
        sql: """
            UPDATE events SET state = 'decided', decided_at = $3, recipients_decided = 1
            WHERE seq BETWEEN $1 AND $2
            """)

    /// Writes the rows for the pending events of `source` (seq `first...last`) in batches; returns the deliveries.
    static func run(
        _ service: BenchService, source: String, users: Int, batch: Int
    ) throws -> (events: Int, deliveries: Int, seconds: Double) {
        let bounds = try service.database { connection in
            let row = try connection.query(
                Query(unsafeSQL: "SELECT min(seq), max(seq) FROM events WHERE source = '\(source)'")
            ).single()
            return (try row.int(0), try row.int(1))
        }
        let body = String(repeating: "x", count: 180)
        let headers = #"{"apns-push-type":"alert","apns-priority":"10"}"#
        let start = ContinuousClock.now
        var deliveries = 0
        var first = bounds.0
        while first <= bounds.1 {
            let last = min(first + batch - 1, bounds.1)
            deliveries += try service.database { [first] connection in
                try connection.transaction { connection in
                    let now = Date()
                    var written = 0
                    _ = try connection.copyIn(copyDeliveries) { copy in
                        for seq in first...last {
                            let user = seq % users
                            for slot in 0..<BenchPopulation.deviceCount(user) {
                                try copy.append([
                                    "d-\(seq)-\(slot)", "n-\(seq)", source, "e\(seq)", "u\(user)",
                                    "i\(user * 4 + slot)",
                                    "apns", "production", String(repeating: "a", count: 64), "alert", headers, body,
                                    10, now, now, now.addingTimeInterval(86_400),
                                ])
                                written += 1
                            }
                        }
                    }
                    _ = try connection.copyIn(copyDecisions) { copy in
                        for seq in first...last {
                            try copy.append([seq, "u\(seq % users)", "delivered", "n-\(seq)", "{d-\(seq)-0}", now])
                        }
                    }
                    _ = try connection.execute(markDecided, [first, last, now])
                    return written
                }
            }
            first = last + 1
        }
        return (bounds.1 - bounds.0 + 1, deliveries, BenchStatistics.seconds(since: start))
    }
}
