import Foundation
import HeraldCore
import HeraldHTTP

/// One line of a bulk import: a user as `PUT /v1/users/{id}` takes it, plus its `id` and optional `devices`, each
/// a device as `PUT /v1/devices/{installation_id}` takes it plus its `installation_id`.
struct ImportLine: Decodable {
    var id: String
    var user: UserBody
    var devices: [ImportDevice]?

    struct ImportDevice: Decodable {
        var installationId: String
        var device: DeviceBody

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            installationId = try container.decode(String.self, forKey: .installationId)
            device = try DeviceBody(from: decoder)
        }

        enum CodingKeys: String, CodingKey { case installationId }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        devices = try container.decodeIfPresent([ImportDevice].self, forKey: .devices)
        user = try UserBody(from: decoder)
    }

    enum CodingKeys: String, CodingKey { case id, devices }

    static let maxDevices = 100

    /// The user and devices of the line, or every problem with it.
    func validated(now: Date, validator: inout RecipientValidator) -> Result<(UserProfile, [Device]), ValidationFailure>
    {
        var errors: [HeraldHTTP.FieldError] = []
        guard OpaqueIdentifier.isValid(id) else {
            return .failure(.init(errors: [.init(pointer: "/id", detail: OpaqueIdentifier.rule())]))
        }
        var profile: UserProfile?
        switch user.profile(id: id, validator: &validator) {
        case .success(let valid): profile = valid
        case .failure(let failure): errors += failure.errors
        }
        var devices: [Device] = []
        let entries = self.devices ?? []
        if entries.count > Self.maxDevices {
            errors.append(.init(pointer: "/devices", detail: "must hold at most \(Self.maxDevices) devices"))
        }
        var seen = Set<String>()
        for (index, entry) in entries.prefix(Self.maxDevices).enumerated() {
            let prefix = "/devices/\(index)"
            guard OpaqueIdentifier.isValid(entry.installationId) else {
                errors.append(.init(pointer: prefix + "/installation_id", detail: OpaqueIdentifier.rule()))
                continue
            }
            guard seen.insert(entry.installationId).inserted else {
                errors.append(.init(pointer: prefix + "/installation_id", detail: "is listed twice"))
                continue
            }
            switch entry.device.device(
                installationId: entry.installationId, ownerId: id, now: now, validator: &validator, prefix: prefix)
            {
            case .success(let device): devices.append(device)
            case .failure(let failure): errors += failure.errors
            }
        }
        guard errors.isEmpty, let profile else { return .failure(ValidationFailure(errors: errors)) }
        return .success((profile, devices))
    }
}
