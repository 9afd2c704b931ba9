import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `/v1/devices/{installation_id}/live-activities[/{activity_id}]` and the same under `/v1/me/devices`: the push
/// token of each iOS Live Activity running on a device, beside its ordinary token. The app's backend manages any
/// device; a client token only its own user's, another user's being a 404 as if it did not exist.
enum LiveActivitiesAPI {
    /// The body of a registration.
    struct TokenBody: Decodable {
        var token: String
    }

    /// One registered activity, as the API shows it.
    struct RegistrationView: Encodable {
        var installationId: String
        var activityId: String
        var token: String
        var registeredAt: Date

        init(_ registration: LiveActivityRepository.Registration) {
            installationId = registration.installationId
            activityId = registration.activityId
            token = registration.token
            registeredAt = registration.registeredAt
        }

        enum CodingKeys: String, CodingKey {
            case token
            case installationId = "installation_id"
            case activityId = "activity_id"
            case registeredAt = "registered_at"
        }
    }

    /// The activities of one device.
    struct ListView: Encodable {
        var items: [RegistrationView]
    }

    static func register(on router: inout Router, context: ServiceContext) {
        for (base, auth) in [("/v1/devices", AuthRequirement.scope(.usersWrite)), ("/v1/me/devices", .clientUser)] {
            let client = base == "/v1/me/devices"
            router.get(base + "/{installation_id}/live-activities", auth: auth) { _, match in
                let installationId = try RecipientPaths.identifier(match, "installation_id", write: false)
                let owner = client ? try ClientUser.id(match) : nil
                // One snapshot for the owner check and the listing: a device that moves to another user between the
                // two never shows the new owner's activities to the old one.
                let registrations = try context.pool.withConnectionBlocking { connection in
                    try connection.transaction(.repeatableRead) { connection in
                        guard try device(installationId, owner: owner, on: connection) != nil else {
                            throw HTTPError.notFound("No device has this installation id.")
                        }
                        return try LiveActivityRepository.registrations(installationId: installationId, on: connection)
                    }
                }
                return try HTTPResponse.json(ListView(items: registrations.map(RegistrationView.init)))
            }
            router.put(base + "/{installation_id}/live-activities/{activity_id}", auth: auth) { request, match in
                try put(request, match, owner: client ? try ClientUser.id(match) : nil, base: base, context: context)
            }
            router.delete(base + "/{installation_id}/live-activities/{activity_id}", auth: auth) { _, match in
                let installationId = try RecipientPaths.identifier(match, "installation_id", write: false)
                let activityId = try RecipientPaths.identifier(match, "activity_id", write: false)
                let owner = client ? try ClientUser.id(match) : nil
                // The owner is checked by the removal itself: a device moved to another user meanwhile keeps its tokens.
                let removed = try context.pool.withConnectionBlocking { connection in
                    try LiveActivityRepository.remove(
                        installationId: installationId, activityId: activityId, ownerId: owner, on: connection)
                }
                guard removed else { throw HTTPError.notFound("No such activity on this device.") }
                return .noContent()
            }
        }
    }

    /// Registers or replaces the token of one activity: 201 for a new activity, 200 for a new token of a known one.
    static func put(
        _ request: HTTPRequest, _ match: RouteMatch, owner: String?, base: String, context: ServiceContext
    ) throws -> HTTPResponse {
        let installationId = try RecipientPaths.identifier(match, "installation_id", write: true)
        let activityId = try RecipientPaths.identifier(match, "activity_id", write: true)
        let body: TokenBody = try request.decodeJSON()
        let now = context.clock()
        let created: Bool?
        do {
            created = try context.pool.withConnectionBlocking { connection -> Bool? in
                guard let record = try device(installationId, owner: owner, on: connection) else { return nil }
                // The owner is checked again under the device's lock, against a move to another user meanwhile.
                return try LiveActivityRepository.register(
                    installationId: installationId, activityId: activityId, ownerId: owner, now: now, on: connection
                ) { held in
                    LiveActivityRegistration.check(
                        token: body.token, activityId: activityId, device: record.device, registered: held)
                }
            }
        } catch let refusal as LiveActivityRegistration.Refusal {
            throw HTTPError.invalidFields(refusal.errors)
        }
        guard let created else { throw HTTPError.notFound("No device has this installation id.") }
        let location = "\(base)/\(installationId)/live-activities/\(activityId)"
        var headers = HTTPHeaders()
        if created { headers.set("Location", location) }
        let registration = LiveActivityRepository.Registration(
            installationId: installationId, activityId: activityId,
            token: DeviceTokenShape.storedForm(body.token, platform: .apns), registeredAt: now)
        return try HTTPResponse.json(
            RegistrationView(registration), status: created ? .created : .ok, headers: headers)
    }

    /// The device, when it exists and, for a client, belongs to `owner`.
    private static func device(
        _ installationId: String, owner: String?, on connection: PostgresConnection
    ) throws -> DeviceRecord? {
        guard let record = try DeviceRepository.find(installationId: installationId, on: connection) else {
            return nil
        }
        if let owner, record.device.userId != owner { return nil }
        return record
    }
}
