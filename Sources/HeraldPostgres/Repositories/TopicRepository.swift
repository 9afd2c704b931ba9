import Foundation

/// One subscriber of a topic.
public struct TopicSubscriber: Sendable, Hashable {
    /// The user.
    public var userId: String
    /// When the user subscribed.
    public var subscribedAt: Date

    /// Creates a subscriber.
    public init(userId: String, subscribedAt: Date) {
        self.userId = userId
        self.subscribedAt = subscribedAt
    }
}

/// The SQL of topic subscriptions. Subscribers are always read in pages by keyset (user id order on the primary
/// key), so neither a listing nor a fan-out ever holds a whole topic in memory.
public enum TopicRepository {
    static let subscribeQuery = Query(
        name: "topics_subscribe",
        sql: """
            INSERT INTO topic_subscriptions (topic, user_id, created_at) VALUES ($1, $2, $3)
            ON CONFLICT (topic, user_id) DO NOTHING
            """)
    static let unsubscribeQuery = Query(
        name: "topics_unsubscribe", sql: "DELETE FROM topic_subscriptions WHERE topic = $1 AND user_id = $2")
    static let pageQuery = Query(
        name: "topics_page",
        sql: """
            SELECT user_id, created_at FROM topic_subscriptions
            WHERE topic = $1 AND user_id > $2 ORDER BY user_id LIMIT $3
            """)

    /// Subscribes user `userId` to `topic`; returns whether the subscription is new. A missing user is a
    /// `foreignKeyViolation`.
    @discardableResult
    public static func subscribe(
        topic: String, userId: String, now: Date, on connection: PostgresConnection
    ) throws -> Bool {
        try connection.execute(subscribeQuery, [topic, userId, now]) > 0
    }

    /// Unsubscribes user `userId` from `topic`; returns whether it was subscribed.
    @discardableResult
    public static func unsubscribe(topic: String, userId: String, on connection: PostgresConnection) throws -> Bool {
        try connection.execute(unsubscribeQuery, [topic, userId]) > 0
    }

    /// Up to `limit` subscribers of `topic` whose user id sorts after `afterUserId` (bytewise), in that order.
    public static func subscribers(
        topic: String, after afterUserId: String?, limit: Int, on connection: PostgresConnection
    ) throws -> [TopicSubscriber] {
        // Every user id is non-empty, so the empty string sorts before all of them.
        try connection.query(pageQuery, [topic, afterUserId ?? "", limit]).map { row in
            TopicSubscriber(userId: try row.string("user_id"), subscribedAt: try row.date("created_at"))
        }
    }

    /// Streams every subscriber id of `topic` in pages of `pageSize`; `body` returns false to stop early. One
    /// statement per page, so memory stays flat for topics of any size.
    public static func forEachSubscriberPage(
        topic: String, pageSize: Int = 10_000, on connection: PostgresConnection,
        _ body: ([String]) throws -> Bool
    ) throws {
        var after: String?
        while true {
            let page = try subscribers(topic: topic, after: after, limit: pageSize, on: connection).map(\.userId)
            guard !page.isEmpty, try body(page), page.count == pageSize else { return }
            after = page.last
        }
    }
}
