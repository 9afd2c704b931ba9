import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// The preference center: the token user's preferences, mutes, quiet hours and devices, through the very handlers
/// of the server-side routes (same rules, same validation), so a change applies to the next decision everywhere.
enum MePreferencesAPI {
    struct QuietHoursBody: Decodable {
        var quietHours: UserBody.QuietHoursBody?
        /// Whether `quiet_hours` was given at all: `null` clears the quiet hours, a missing member is a mistake.
        var quietHoursGiven: Bool
        var timeZone: String?

        // The request decoder turns snake_case keys into these.
        enum CodingKeys: String, CodingKey {
            case quietHours, timeZone
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            quietHoursGiven = c.contains(.quietHours)
            quietHours = try c.decodeIfPresent(UserBody.QuietHoursBody.self, forKey: .quietHours)
            timeZone = try c.decodeIfPresent(String.self, forKey: .timeZone)
        }
    }

    static func register(on router: inout Router, context: ServiceContext) {
        router.get("/v1/me/preferences", auth: .clientUser) { _, match in
            try UsersPreferencesAPI.list(userId: try ClientUser.id(match), context: context)
        }
        router.put("/v1/me/preferences/{category}", auth: .clientUser) { request, match in
            try UsersPreferencesAPI.set(
                userId: try ClientUser.id(match), categoryId: try match.parameter("category"), request: request,
                context: context)
        }
        router.delete("/v1/me/preferences/{category}", auth: .clientUser) { _, match in
            try UsersPreferencesAPI.reset(
                userId: try ClientUser.id(match), categoryId: try match.parameter("category"), context: context)
        }
        router.get("/v1/me/mutes", auth: .clientUser) { _, match in
            try UsersMutesAPI.list(userId: try ClientUser.id(match), context: context)
        }
        router.post("/v1/me/mutes", auth: .clientUser) { request, match in
            try UsersMutesAPI.create(
                userId: try ClientUser.id(match), request: request, basePath: "/v1/me/mutes", context: context)
        }
        router.delete("/v1/me/mutes/{mute_id}", auth: .clientUser) { _, match in
            try UsersMutesAPI.delete(
                userId: try ClientUser.id(match), muteId: try match.parameter("mute_id"), context: context)
        }
        router.put("/v1/me/quiet-hours", auth: .clientUser) { request, match in
            try setQuietHours(userId: try ClientUser.id(match), request: request, context: context)
        }
        router.put("/v1/me/devices/{installation_id}", auth: .clientUser) { request, match in
            let installationId = try RecipientPaths.identifier(match, "installation_id", write: true)
            return try DevicesAPI.register(
                installationId: installationId, ownerId: try ClientUser.id(match), request: request,
                location: "/v1/me/devices/\(installationId)", context: context)
        }
        router.delete("/v1/me/devices/{installation_id}", auth: .clientUser) { _, match in
            try DevicesAPI.remove(
                installationId: try RecipientPaths.identifier(match, "installation_id", write: false),
                ownerId: try ClientUser.id(match), context: context)
        }
    }

    /// Replaces the quiet hours (null clears them), keeping the rest of the profile; the profile goes through the
    /// same validation as `PUT /v1/users/{id}` (quiet hours need a time zone: the body's or the stored one).
    static func setQuietHours(userId: String, request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        let body: QuietHoursBody = try request.decodeJSON()
        guard body.quietHoursGiven else {
            throw HTTPError.invalidField("/quiet_hours", "is required: the quiet hours, or null to clear them")
        }
        let now = context.clock()
        let view = try context.pool.withConnectionBlocking { connection in
            try connection.transaction { connection in
                guard let record = try UserRepository.findForChange(id: userId, on: connection) else {
                    throw HTTPError.notFound("No user has this id.")
                }
                let current = record.profile
                let user = UserBody(
                    locale: current.locale, timeZone: body.timeZone ?? current.timeZone,
                    quietHours: body.quietHours, badge: current.badge)
                var validator = RecipientValidator(zones: context.zones)
                let profile = try user.profile(id: userId, validator: &validator).orUnprocessable()
                let (stored, _) = try UserRepository.upsert(profile, now: now, on: connection)
                let devices = try DeviceRepository.devices(userId: userId, on: connection)
                return RecipientViews.UserView(
                    record: stored, devices: devices.map { RecipientViews.DeviceView($0, now: now) })
            }
        }
        return try HTTPResponse.json(view)
    }
}
