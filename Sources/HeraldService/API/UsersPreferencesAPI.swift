import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `/v1/users/{id}/preferences`: a user's choice per category, and the effective preference for every category.
enum UsersPreferencesAPI {
    struct SettingBody: Decodable {
        var setting: String
    }

    static func register(on router: inout Router, context: ServiceContext) {
        router.get("/v1/users/{id}/preferences", auth: .scope(.usersWrite)) { _, match in
            try list(userId: try RecipientPaths.identifier(match, "id", write: false), context: context)
        }
        router.put("/v1/users/{id}/preferences/{category}", auth: .scope(.usersWrite)) { request, match in
            try set(
                userId: try RecipientPaths.identifier(match, "id", write: true),
                categoryId: try match.parameter("category"), request: request, context: context)
        }
        router.delete("/v1/users/{id}/preferences/{category}", auth: .scope(.usersWrite)) { _, match in
            try reset(
                userId: try RecipientPaths.identifier(match, "id", write: false),
                categoryId: try match.parameter("category"), context: context)
        }
    }

    /// Every category with the user's own setting and the effective one; the server and client routes share it.
    static func list(userId id: String, context: ServiceContext) throws -> HTTPResponse {
        let settings = try context.pool.withConnectionBlocking { connection in
            try UsersAPI.requireUser(id, on: connection)
            return try PreferenceRepository.settings(userId: id, on: connection).map {
                RecipientViews.PreferenceView(category: $0.category, userSetting: $0.userSetting)
            }
        }
        return try HTTPResponse.json(RecipientViews.Items(items: settings))
    }

    /// Sets the user's choice for one category from a `{setting}` body.
    static func set(
        userId id: String, categoryId: String, request: HTTPRequest, context: ServiceContext
    ) throws -> HTTPResponse {
        let body: SettingBody = try request.decodeJSON()
        guard let setting = PreferenceSetting(rawValue: body.setting) else {
            throw HTTPError.invalidField("/setting", "must be on, off or digest")
        }
        let now = context.clock()
        let view = try context.pool.withConnectionBlocking { connection in
            try connection.transaction { connection in
                try UsersAPI.requireUser(id, on: connection)
                let category = try activeCategory(categoryId, on: connection)
                try PreferenceRepository.set(
                    userId: id, categoryId: categoryId, setting: setting, now: now, on: connection)
                return RecipientViews.PreferenceView(category: category, userSetting: setting)
            }
        }
        return try HTTPResponse.json(view)
    }

    /// Drops the user's choice for one category, back to the category default.
    static func reset(userId id: String, categoryId: String, context: ServiceContext) throws -> HTTPResponse {
        try context.pool.withConnectionBlocking { connection in
            try UsersAPI.requireUser(id, on: connection)
            guard OpaqueIdentifier.isCategoryId(categoryId),
                try PreferenceRepository.category(id: categoryId, on: connection) != nil
            else {
                throw HTTPError.notFound("No category has this id.")
            }
            try PreferenceRepository.reset(userId: id, categoryId: categoryId, on: connection)
        }
        return .noContent()
    }

    /// The category `id`, which must exist and not be archived.
    static func activeCategory(_ id: String, on connection: PostgresConnection) throws -> PreferenceCategory {
        guard OpaqueIdentifier.isCategoryId(id),
            let category = try PreferenceRepository.category(id: id, on: connection)
        else { throw HTTPError.notFound("No category has this id.") }
        if category.archived { throw archivedCategory }
        return category
    }

    /// An archived category takes no new choice of a user's, neither a preference nor a mute.
    static var archivedCategory: HTTPError {
        HTTPError.conflict("The category is archived.", type: "category-archived")
    }
}
