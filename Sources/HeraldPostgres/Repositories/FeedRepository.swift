import Foundation
import HeraldCore

/// The SQL of the client feed: a user's notifications after a position, by the `decisions_feed` index.
public enum FeedRepository {
    // A range scan of (user_id, feed_seq) in index order with a LIMIT: the cost is the page, never the history.
    static let pageQuery = Query(
        name: "feed_page",
        sql: """
            SELECT d.feed_seq, d.notification_id, d.item_id, d.thread_id, d.decided_at, d.read_at, e.category_id,
                   e.document::text AS document
            FROM decisions d JOIN events e ON e.seq = d.event_seq
            WHERE d.user_id = $1 AND d.feed_seq > $2
            ORDER BY d.feed_seq
            LIMIT $3
            """)
    static let head = Query(
        name: "feed_head",
        sql: """
            SELECT u.id, u.locale, u.time_zone, u.quiet_start_minute, u.quiet_end_minute, u.quiet_days, u.badge,
                   coalesce(c.unread, 0) AS unread
            FROM users u LEFT JOIN recipient_counters c ON c.user_id = u.id
            WHERE u.id = $1
            """)

    /// Up to `limit` notifications of `userId` after position `after`, with the profile and unread count, in one
    /// round trip; nil for an unknown user.
    public static func page(
        userId: String, after: Int64, limit: Int, on connection: PostgresConnection
    ) throws -> FeedPage? {
        let results = try connection.pipeline([
            BoundQuery(head, [userId]), BoundQuery(pageQuery, [userId, after, limit + 1]),
        ])
        guard let headRow = results[0].first else { return nil }
        var rows = try results[1].map { row in
            FeedRow(
                position: try row.int64("feed_seq"), notificationId: try row.string("notification_id"),
                itemId: try row.decode(String?.self, "item_id"), threadId: try row.decode(String?.self, "thread_id"),
                categoryId: try row.string("category_id"), createdAt: try row.date("decided_at"),
                readAt: try row.decode(Date?.self, "read_at"), eventDocument: try row.string("document"))
        }
        let hasMore = rows.count > limit
        if hasMore { rows.removeLast() }
        return FeedPage(
            rows: rows, hasMore: hasMore, profile: try UserRepository.profile(headRow),
            unread: try headRow.int("unread"))
    }
}
