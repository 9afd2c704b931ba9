import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `/v1/devices/{installation_id}`: register (token rotation, moving a token to its new owner), read, sign out.
enum DevicesAPI {
    static func register(on router: inout Router, context: ServiceContext) {
        router.put("/v1/devices/{installation_id}", auth: .scope(.usersWrite)) { request, match in
            let installationId = try RecipientPaths.identifier(match, "installation_id", write: true)
            let body: DeviceBody = try request.decodeJSON()
            let now = context.clock()
            var validator = RecipientValidator(zones: context.zones)
            let device = try body.device(installationId: installationId, now: now, validator: &validator)
                .orUnprocessable()
            let registration = try context.pool.withConnectionBlocking { connection in
                try DeviceRepository.register(device, now: now, on: connection)
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
            if registration.created { headers.set("Location", "/v1/devices/\(installationId)") }
            return try HTTPResponse.json(
                RecipientViews.DeviceView(registration.record, now: now),
                status: registration.created ? .created : .ok, headers: headers)
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
            let installationId = try RecipientPaths.identifier(match, "installation_id", write: false)
            let now = context.clock()
            let removed = try context.pool.withConnectionBlocking { connection in
                try DeviceRepository.remove(installationId: installationId, now: now, on: connection)
            }
            guard removed else { throw HTTPError.notFound("No device has this installation id.") }
            return .noContent()
        }
    }
}
