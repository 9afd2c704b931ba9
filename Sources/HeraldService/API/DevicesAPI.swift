import Foundation
import HeraldCore
import HeraldHTTP
import HeraldObservability
import HeraldPostgres

/// `/v1/devices/{installation_id}`: register (token rotation, moving a token to its new owner), read, sign out.
enum DevicesAPI {
    static func register(on router: inout Router, context: ServiceContext) {
        router.put("/v1/devices/{installation_id}", auth: .scope(.usersWrite)) { request, match in
            let installationId = try RecipientPaths.identifier(match, "installation_id", write: true)
            return try register(
                installationId: installationId, ownerId: nil, request: request,
                location: "/v1/devices/\(installationId)", context: context)
        }
        router.get("/v1/devices/{installation_id}", auth: .scope(.usersWrite)) { _, match in
            let installationId = try RecipientPaths.identifier(match, "installation_id", write: false)
            let now = context.clock()
            let record = try context.pool.withConnectionBlocking { connection in
                try DeviceRepository.find(installationId: installationId, on: connection)
            }
            guard let record else { throw HTTPError.notFound("No device has this installation id.") }
            return try HTTPResponse.json(RecipientViews.DeviceView(record, now: now))
        }
        router.delete("/v1/devices/{installation_id}", auth: .scope(.usersWrite)) { _, match in
            try remove(
                installationId: try RecipientPaths.identifier(match, "installation_id", write: false), ownerId: nil,
                context: context)
        }
    }

    /// Registers a device from the request body; with `ownerId` (a client acting for its user) the body's
    /// `user_id` must be absent or that user. `location` is the device's URL for a 201.
    static func register(
        installationId: String, ownerId: String?, request: HTTPRequest, location: String, context: ServiceContext
    ) throws -> HTTPResponse {
        let body: DeviceBody = try request.decodeJSON()
        let now = context.clock()
        var validator = RecipientValidator(zones: context.zones)
        let device = try body.device(installationId: installationId, ownerId: ownerId, now: now, validator: &validator)
            .orUnprocessable()
        let registration: DeviceRegistration
        do {
            registration = try context.pool.withConnectionBlocking { connection in
                try DeviceRepository.register(device, now: now, by: ownerId == nil ? .backend : .user, on: connection)
            }
        } catch DeviceRegistrar.Refusal.unknownUser {
            throw HTTPError.notFound("No user has this id.")
        } catch DeviceRegistrar.Refusal.installationOfAnotherUser {
            throw HTTPError.conflict(
                "This installation is registered to another user; it moves only through the app's backend.",
                type: "installation-of-another-user")
        } catch DeviceRegistrar.Refusal.tooManyDevices {
            throw HTTPError.conflict(
                "This user already holds \(Device.maxPerUser) active devices; remove one first.",
                type: "too-many-devices")
        } catch DeviceRegistrar.Refusal.tokenOfAnotherUser {
            throw HTTPError.conflict(
                "This push token is registered to another user's installation; it moves only through the app's "
                    + "backend.", type: "token-of-another-user")
        }
        if registration.movedFromUser != nil {
            context.logger.info(
                "device moved to another user", ["device.installation_id": .string(installationId)])
        }
        if !registration.displacedInstallations.isEmpty {
            context.logger.info(
                "device token moved",
                [
                    "device.installation_id": .string(installationId),
                    "device.displaced": .string(registration.displacedInstallations.joined(separator: ",")),
                ])
        }
        var headers = HTTPHeaders()
        if registration.created { headers.set("Location", location) }
        return try HTTPResponse.json(
            RecipientViews.DeviceView(registration.record, now: now),
            status: registration.created ? .created : .ok, headers: headers)
    }

    /// Signs a device out; with `ownerId`, a device of another user is a 404 as if it did not exist.
    static func remove(installationId: String, ownerId: String?, context: ServiceContext) throws -> HTTPResponse {
        let now = context.clock()
        let removed = try context.pool.withConnectionBlocking { connection in
            try DeviceRepository.remove(installationId: installationId, ownerId: ownerId, now: now, on: connection)
        }
        guard removed else { throw HTTPError.notFound("No device has this installation id.") }
        return .noContent()
    }
}
