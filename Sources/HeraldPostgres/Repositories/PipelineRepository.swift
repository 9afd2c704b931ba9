import Foundation

/// A worker's transaction boundaries and topic pages.
public enum PipelineRepository {
    static let topicPage = Query(
        name: "pipeline_topic_page",
        sql: """
            SELECT user_id FROM topic_subscriptions
            WHERE topic = $1 AND user_id > $2
            ORDER BY user_id LIMIT $3
            """)

    static let begin = Query(name: "pipeline_begin", sql: "BEGIN")
    static let commit = Query(name: "pipeline_commit", sql: "COMMIT")

    /// `BEGIN`, to open a batch's transaction at the head of a pipeline.
    public static var beginQuery: BoundQuery { BoundQuery(begin) }
    /// `COMMIT`, to close a batch's transaction at the end of its last pipeline.
    public static var commitQuery: BoundQuery { BoundQuery(commit) }

    /// Rolls back whatever transaction is open, so an abandoned batch leaves the session clean.
    public static func abandon(_ connection: PostgresConnection) {
        connection.rollbackIfNeeded()
    }

    /// One page of each topic's subscribers after a cursor, in user id order (keyset paging, so a topic of any
    /// size streams without loading at once); one round trip for all topics.
    public static func topicPages(
        _ requests: [(topic: String, after: String)], limit: Int, on connection: PostgresConnection
    ) throws -> [[String]] {
        guard !requests.isEmpty else { return [] }
        let results = try connection.pipeline(
            requests.map { BoundQuery(topicPage, [$0.topic, $0.after, limit]) })
        return try results.map { result in try result.map { try $0.string("user_id") } }
    }
}
