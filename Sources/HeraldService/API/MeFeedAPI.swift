import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `GET /v1/me/feed` (the token user's notifications after a cursor, rendered in their locale, with each event's
/// ciphertext for the user's own installation named by `installation_id`) and `POST /v1/me/read` (the server-side
/// read, for the token's user).
enum MeFeedAPI {
    static let defaultLimit = 50
    static let maxLimit = 200

    static func register(on router: inout Router, environment: PipelineEnvironment) {
        let context = environment.context
        let cache = FeedCategoryCache()
        router.get("/v1/me/feed", auth: .clientUser) { request, match in
            let userId = try ClientUser.id(match)
            let after = try cursor(request)
            let limit = try PageCursor.limit(request, defaultValue: defaultLimit, maximum: maxLimit)
            let installationId = try installation(request)
            let now = context.clock()
            let found = try environment.database { connection -> (FeedPage, [String: HeraldCore.Category])? in
                if let installationId {
                    guard
                        try DeviceRepository.find(installationId: installationId, on: connection)?.device.userId
                            == userId
                    else { throw HTTPError.notFound("No device of yours has this installation id.") }
                }
                guard
                    let page = try FeedRepository.page(
                        userId: userId, after: after.position, limit: limit, on: connection)
                else { return nil }
                let ids = Array(Set(page.rows.map(\.categoryId)))
                return (page, try cache.categories(ids, now: now, on: connection))
            }
            guard let (page, categories) = found else { throw HTTPError.notFound("No user has this id.") }
            let items = page.rows.map { row in
                item(
                    row, category: categories[row.categoryId], profile: page.profile, installationId: installationId,
                    environment: environment)
            }
            let next = page.rows.last.map { FeedCursor(position: $0.position) } ?? after
            return try HTTPResponse.json(
                FeedView(
                    items: items, nextCursor: next.text, hasMore: page.hasMore, unreadCount: page.unread,
                    badge: page.profile.appBadge(unread: page.unread)),
                headers: ["Cache-Control": "no-store"])
        }
        router.post("/v1/me/read", auth: .clientUser) { request, match in
            let userId = try ClientUser.id(match)
            let body: ReadsAPI.ReadBody = try request.decodeJSONValue().decode()
            let readRequest = try ReadsAPI.validate(body, userId: userId)
            let now = context.clock()
            let outcome = try environment.database { connection -> ReadOutcome? in
                try ReadsAPI.apply(readRequest, decider: environment.decider, now: now, on: connection)
            }
            guard let outcome else { throw HTTPError.notFound("No user has this id.") }
            return try HTTPResponse.json(ReadsAPI.ReadView(userId: userId, outcome: outcome))
        }
    }

    /// The `after` cursor; absent means the start of the feed, anything Herald did not issue is a 400.
    static func cursor(_ request: HTTPRequest) throws -> FeedCursor {
        guard let text = request.query("after") else { return FeedCursor(position: 0) }
        guard let cursor = FeedCursor(text: text) else {
            throw HTTPError(
                status: .badRequest, type: "invalid-cursor",
                detail: "after is not a feed cursor Herald issued; start again without it.", pointer: "after")
        }
        return cursor
    }

    /// The `installation_id` whose ciphertexts the items carry; one that cannot be an installation id is a 400.
    static func installation(_ request: HTTPRequest) throws -> String? {
        guard let text = request.query("installation_id") else { return nil }
        guard OpaqueIdentifier.isValid(text) else {
            throw HTTPError(
                status: .badRequest, type: "invalid-query",
                detail: "installation_id \(OpaqueIdentifier.rule()).", pointer: "installation_id")
        }
        return text
    }

    static func item(
        _ row: FeedRow, category: HeraldCore.Category?, profile: UserProfile, installationId: String?,
        environment: PipelineEnvironment
    ) -> FeedView.Item {
        var title: String?
        var body: String?
        var ciphertext: String?
        var media: (imageURL: String?, link: String?) = (nil, nil)
        if let category, let event = EventDocument.decode(Array(row.eventDocument.utf8)) {
            (title, body) = FeedText.render(
                event: event, category: category, profile: profile,
                renderer: environment.decider.renderer)
            ciphertext = FeedText.ciphertext(event: event, category: category, installationId: installationId)
            media = FeedText.media(event: event, category: category)
        }
        return FeedView.Item(
            notificationId: row.notificationId, cursor: FeedCursor(position: row.position).text,
            category: row.categoryId, title: title, body: body, threadId: row.threadId, itemId: row.itemId,
            createdAt: row.createdAt, read: row.readAt != nil, readAt: row.readAt, imageURL: media.imageURL,
            link: media.link, ciphertext: ciphertext)
    }
}
