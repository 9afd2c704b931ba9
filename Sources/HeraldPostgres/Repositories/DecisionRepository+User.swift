import Foundation

extension DecisionRepository {
    static let userExists = Query(name: "decisions_user_exists", sql: "SELECT 1 FROM users WHERE id = $1")

    // decisions_user_recent read backwards: the partitions are ranges of event_seq, so the ordered append opens
    // the newest day first and stops once the page is full; each row finds its event by the events primary key.
    static let forUser = Query(
        name: "decisions_for_user",
        sql: """
            SELECT d.event_seq, e.source, e.id, e.category_id, d.outcome, d.detail, d.deliver_at, d.notification_id,
                   cardinality(d.delivery_ids) AS deliveries, d.decided_at
            FROM decisions d JOIN events e ON e.seq = d.event_seq
            WHERE d.user_id = $1 AND d.event_seq < $2
            ORDER BY d.event_seq DESC
            LIMIT $3
            """)

    /// Up to `limit` decisions of `userId` for events before seq `before`, newest first, in one round trip with
    /// the user's existence; nil for an unknown user.
    public static func decisions(
        userId: String, before: Int64, limit: Int, on connection: PostgresConnection
    ) throws -> UserDecisionPage? {
        let results = try connection.pipeline([
            BoundQuery(userExists, [userId]), BoundQuery(forUser, [userId, before, limit + 1]),
        ])
        guard results[0].first != nil else { return nil }
        var records = try results[1].map { row in
            UserDecisionRecord(
                eventSeq: try row.int64("event_seq"), eventSource: try row.string("source"),
                eventId: try row.string("id"), categoryId: try row.string("category_id"),
                outcome: try row.string("outcome"), detail: try row.decode(String?.self, "detail"),
                deliverAt: try row.decode(Date?.self, "deliver_at"),
                notificationId: try row.decode(String?.self, "notification_id"), deliveries: try row.int("deliveries"),
                decidedAt: try row.date("decided_at"))
        }
        let hasMore = records.count > limit
        if hasMore { records.removeLast() }
        return UserDecisionPage(records: records, hasMore: hasMore)
    }
}
