import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `/v1/topics/{topic}/subscribers`: who is resolved as a recipient of a topic such as `conversation:42`. The list
/// is paged by a keyset cursor, so topics of any size are read a page at a time.
enum TopicsAPI {
    static let defaultLimit = 100
    static let maxLimit = 1000

    struct SubscriberView: Encodable {
        var userId: String
        var subscribedAt: Date
    }

    struct Page: Encodable {
        var items: [SubscriberView]
        var nextCursor: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(items, forKey: .items)
            try container.encode(nextCursor, forKey: .nextCursor)
        }

        enum CodingKeys: String, CodingKey { case items, nextCursor }
    }

    static func register(on router: inout Router, context: ServiceContext) {
        router.put("/v1/topics/{topic}/subscribers/{user_id}", auth: .scope(.usersWrite)) { _, match in
            let topic = try RecipientPaths.topic(match, "topic", write: true)
            let userId = try RecipientPaths.identifier(match, "user_id", write: true)
            let now = context.clock()
            try context.pool.withConnectionBlocking { connection in
                do {
                    try TopicRepository.subscribe(topic: topic, userId: userId, now: now, on: connection)
                } catch let error as PostgresError where error.kind == .foreignKeyViolation {
                    throw HTTPError.notFound("No user has this id.")
                }
            }
            return .noContent()
        }
        router.delete("/v1/topics/{topic}/subscribers/{user_id}", auth: .scope(.usersWrite)) { _, match in
            let topic = try RecipientPaths.topic(match, "topic", write: false)
            let userId = try RecipientPaths.identifier(match, "user_id", write: false)
            _ = try context.pool.withConnectionBlocking { connection in
                try TopicRepository.unsubscribe(topic: topic, userId: userId, on: connection)
            }
            return .noContent()
        }
        router.get("/v1/topics/{topic}/subscribers", auth: .scope(.usersWrite)) { request, match in
            let topic = try RecipientPaths.topic(match, "topic", write: false)
            let (limit, after) = try paging(request)
            // One extra row tells whether another page exists without a second query.
            let rows = try context.pool.withConnectionBlocking { connection in
                try TopicRepository.subscribers(topic: topic, after: after, limit: limit + 1, on: connection)
            }
            let page = rows.prefix(limit)
            let next = rows.count > limit ? page.last.map { SubscriberCursor.encode(after: $0.userId) } : nil
            return try HTTPResponse.json(
                Page(
                    items: page.map { SubscriberView(userId: $0.userId, subscribedAt: $0.subscribedAt) },
                    nextCursor: next))
        }
    }

    /// `limit` (1 to 1000, default 100) and the user id the `cursor` continues after.
    static func paging(_ request: HTTPRequest) throws -> (limit: Int, after: String?) {
        let limit = try PageCursor.limit(request, defaultValue: defaultLimit, maximum: maxLimit)
        var after: String?
        if let cursor = request.query("cursor") {
            guard let userId = SubscriberCursor.decode(cursor) else {
                throw PageCursor.unknownIdCursor
            }
            after = userId
        }
        return (limit, after)
    }
}
