import Foundation
import HeraldHTTP
import HeraldObservability
import HeraldPostgres

/// `/v1/users/{id}`: create or replace a profile, read it with its devices, delete it with everything attached.
enum UsersAPI {
    static func register(on router: inout Router, context: ServiceContext) {
        router.put("/v1/users/{id}", auth: .scope(.usersWrite)) { request, match in
            let id = try RecipientPaths.identifier(match, "id", write: true)
            let body: UserBody = try request.decodeJSON()
            var validator = RecipientValidator(zones: context.zones)
            let profile = try body.profile(id: id, validator: &validator).orUnprocessable()
            let now = context.clock()
            let (record, created, devices) = try context.pool.withConnectionBlocking { connection in
                let (record, created) = try UserRepository.upsert(profile, now: now, on: connection)
                return (record, created, try DeviceRepository.devices(userId: id, on: connection))
            }
            var headers = HTTPHeaders()
            if created { headers.set("Location", "/v1/users/\(id)") }
            let view = RecipientViews.UserView(
                record: record, devices: devices.map { RecipientViews.DeviceView($0, now: now) })
            return try HTTPResponse.json(view, status: created ? .created : .ok, headers: headers)
        }
        router.get("/v1/users/{id}", auth: .scope(.usersWrite)) { _, match in
            let id = try RecipientPaths.identifier(match, "id", write: false)
            let now = context.clock()
            let found = try context.pool.withConnectionBlocking { connection in
                try UserRepository.find(id: id, on: connection).map {
                    ($0, try DeviceRepository.devices(userId: id, on: connection))
                }
            }
            guard let (record, devices) = found else { throw HTTPError.notFound("No user has this id.") }
            return try HTTPResponse.json(
                RecipientViews.UserView(
                    record: record, devices: devices.map { RecipientViews.DeviceView($0, now: now) }))
        }
        router.delete("/v1/users/{id}", auth: .scope(.usersWrite)) { _, match in
            let id = try RecipientPaths.identifier(match, "id", write: false)
            let now = context.clock()
            let deleted = try context.pool.withConnectionBlocking { connection in
                try UserRepository.delete(id: id, now: now, on: connection)
            }
            guard deleted else { throw HTTPError.notFound("No user has this id.") }
            context.logger.info("user deleted", ["auth.key_id": .string(match.principal?.keyID ?? "")])
            return .noContent()
        }
    }

    /// Throws 404 unless user `id` exists.
    static func requireUser(_ id: String, on connection: PostgresConnection) throws {
        guard try UserRepository.exists(id: id, on: connection) else {
            throw HTTPError.notFound("No user has this id.")
        }
    }
}
