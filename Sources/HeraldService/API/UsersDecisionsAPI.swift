import Foundation
import HeraldHTTP
import HeraldPostgres

/// `GET /v1/users/{id}/decisions`: the user's latest decisions, newest first, each with its event and reason, for
/// "why didn't they get this?" when the event is not known.
enum UsersDecisionsAPI {
    static let defaultLimit = 20
    static let maxLimit = 100

    static func register(on router: inout Router, context: ServiceContext) {
        router.get("/v1/users/{id}/decisions", auth: .scope(.usersWrite)) { request, match in
            let id = try RecipientPaths.identifier(match, "id", write: false)
            let limit = try PageCursor.limit(request, defaultValue: defaultLimit, maximum: maxLimit)
            let before = try request.query("cursor").map { try PageCursor.decisionSeq(from: $0) } ?? Int64.max
            let page = try context.pool.withConnectionBlocking { connection in
                try DecisionRepository.decisions(userId: id, before: before, limit: limit, on: connection)
            }
            guard let page else { throw HTTPError.notFound("No user has this id.") }
            let next = page.hasMore ? page.records.last.map { PageCursor.decision(before: $0.eventSeq) } : nil
            return try HTTPResponse.json(
                DecisionList(items: page.records.map(DecisionView.init), nextCursor: next),
                headers: ["Cache-Control": "no-store"])
        }
    }

    /// One decision as the list shows it.
    struct DecisionView: Encodable {
        var eventSource: String
        var eventId: String
        var category: String
        /// The coarse outcome: `delivered`, `deferred`, `suppressed`, …
        var outcome: String
        /// The exact reason code, e.g. `suppressed.preference`.
        var reason: String
        var detail: String?
        var deliverAt: Date?
        var decidedAt: Date
        var notificationId: String?
        var deliveries: Int

        init(_ record: UserDecisionRecord) {
            eventSource = record.eventSource
            eventId = record.eventId
            category = record.categoryId
            reason = record.outcome
            outcome = EventsAPI.RecipientDecisionView.coarse(record.outcome)
            detail = record.detail
            deliverAt = record.deliverAt
            decidedAt = record.decidedAt
            notificationId = record.notificationId
            deliveries = record.deliveries
        }

        enum CodingKeys: String, CodingKey {
            case eventSource, eventId, category, outcome, reason, detail, deliverAt, decidedAt, notificationId
            case deliveries
        }

        // Absent values are written as null, so every item has the same members.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(eventSource, forKey: .eventSource)
            try container.encode(eventId, forKey: .eventId)
            try container.encode(category, forKey: .category)
            try container.encode(outcome, forKey: .outcome)
            try container.encode(reason, forKey: .reason)
            try container.encode(detail, forKey: .detail)
            try container.encode(deliverAt, forKey: .deliverAt)
            try container.encode(decidedAt, forKey: .decidedAt)
            try container.encode(notificationId, forKey: .notificationId)
            try container.encode(deliveries, forKey: .deliveries)
        }
    }

    /// A page of decisions.
    struct DecisionList: Encodable {
        var items: [DecisionView]
        var nextCursor: String?

        enum CodingKeys: String, CodingKey { case items, nextCursor }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(items, forKey: .items)
            try container.encode(nextCursor, forKey: .nextCursor)
        }
    }
}
