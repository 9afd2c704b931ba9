import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `/v1/users/{id}/mutes`: silence everything, a category or a thread, optionally until an instant. Expired mutes
/// are neither listed nor applied; "now" is the service clock.
enum UsersMutesAPI {
    struct MuteBody: Decodable {
        var scope: String
        var key: String?
        var until: Date?
    }

    static func register(on router: inout Router, context: ServiceContext) {
        router.post("/v1/users/{id}/mutes", auth: .scope(.usersWrite)) { request, match in
            let id = try RecipientPaths.identifier(match, "id", write: true)
            return try create(userId: id, request: request, basePath: "/v1/users/\(id)/mutes", context: context)
        }
        router.get("/v1/users/{id}/mutes", auth: .scope(.usersWrite)) { _, match in
            try list(userId: try RecipientPaths.identifier(match, "id", write: false), context: context)
        }
        router.delete("/v1/users/{id}/mutes/{mute_id}", auth: .scope(.usersWrite)) { _, match in
            try delete(
                userId: try RecipientPaths.identifier(match, "id", write: false),
                muteId: try match.parameter("mute_id"), context: context)
        }
    }

    /// Adds or renews a mute from the request body; `basePath` prefixes the `Location` of the mute.
    static func create(
        userId id: String, request: HTTPRequest, basePath: String, context: ServiceContext
    ) throws -> HTTPResponse {
        let body: MuteBody = try request.decodeJSON()
        guard let scope = Mute.Scope(rawValue: body.scope) else {
            throw HTTPError.invalidField("/scope", "must be all, category or thread")
        }
        let now = context.clock()
        let mute = MuteRequest(scope: scope, key: body.key, until: body.until)
        let errors = mute.validate(now: now)
        if !errors.isEmpty { throw HTTPError.invalidFields(errors) }
        let (record, created) = try context.pool.withConnectionBlocking { connection in
            try connection.transaction { connection in
                // Held until the mute is stored: two requests at once cannot both see room for one more.
                guard try UserRepository.lockForCounting(id: id, on: connection) else {
                    throw HTTPError.notFound("No user has this id.")
                }
                if scope == .category, let key = mute.key {
                    guard let category = try PreferenceRepository.category(id: key, on: connection) else {
                        throw HTTPError.invalidField("/key", "no category has this id")
                    }
                    if category.archived { throw UsersPreferencesAPI.archivedCategory }
                }
                let stored = try MuteRepository.stored(userId: id, on: connection)
                let admission = MuteAdmission(mute, among: stored.map { ($0.mute, $0.createdAt) }, now: now)
                guard admission.hasRoom else {
                    throw HTTPError.conflict(
                        "This user already has \(Mute.maxPerUser) mutes running; remove one first.",
                        type: "too-many-mutes")
                }
                return try MuteRepository.store(userId: id, mute, admission, on: connection)
            }
        }
        var headers = HTTPHeaders()
        headers.set("Location", "\(basePath)/\(record.mute.id)")
        return try HTTPResponse.json(
            RecipientViews.MuteView(record: record), status: created ? .created : .ok, headers: headers)
    }

    /// The user's mutes still running.
    static func list(userId id: String, context: ServiceContext) throws -> HTTPResponse {
        let now = context.clock()
        let mutes = try context.pool.withConnectionBlocking { connection in
            try UsersAPI.requireUser(id, on: connection)
            return try MuteRepository.active(userId: id, now: now, on: connection)
        }
        return try HTTPResponse.json(RecipientViews.Items(items: mutes.map(RecipientViews.MuteView.init)))
    }

    /// Removes one of the user's mutes; another user's mute id is a 404.
    static func delete(userId id: String, muteId text: String, context: ServiceContext) throws -> HTTPResponse {
        guard let muteId = UUID(uuidString: text) else { throw HTTPError.notFound("No mute has this id.") }
        let deleted = try context.pool.withConnectionBlocking { connection in
            try MuteRepository.delete(userId: id, muteId: muteId, on: connection)
        }
        guard deleted else { throw HTTPError.notFound("No mute has this id.") }
        return .noContent()
    }
}
