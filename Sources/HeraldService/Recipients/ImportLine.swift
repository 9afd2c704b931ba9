import Foundation
import HeraldCore
import HeraldHTTP

/// One line of a bulk import: a user as `PUT /v1/users/{id}` takes it, plus its `id` and optional `devices`, each
/// a device as `PUT /v1/devices/{installation_id}` takes it plus its `installation_id`.
///
/// Lines are decoded with explicit snake_case keys by a decoder without key conversion: converting every key of a
/// million lines was most of an import's CPU time.
struct ImportLine: Decodable {
    var id: String
    var user: UserBody
    var devices: [ImportDevice]?

    struct ImportDevice: Decodable {
        var installationId: String
        var device: DeviceBody

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            installationId = try c.decode(String.self, forKey: .installationId)
            device = DeviceBody(
                userId: try c.decodeIfPresent(String.self, forKey: .userId),
                platform: try c.decode(String.self, forKey: .platform),
                token: try c.decode(DeviceBody.TokenBody.self, forKey: .token),
                environment: try c.decodeIfPresent(String.self, forKey: .environment),
                appId: try c.decode(String.self, forKey: .appId),
                locale: try c.decodeIfPresent(String.self, forKey: .locale),
                appVersion: try c.decodeIfPresent(String.self, forKey: .appVersion),
                appBuildsNotifications: try c.decodeIfPresent(Bool.self, forKey: .appBuildsNotifications))
        }

        enum CodingKeys: String, CodingKey {
            case platform, token, environment, locale
            case installationId = "installation_id"
            case userId = "user_id"
            case appId = "app_id"
            case appVersion = "app_version"
            case appBuildsNotifications = "app_builds_notifications"
        }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        devices = try c.decodeIfPresent([ImportDevice].self, forKey: .devices)
        user = UserBody(
            locale: try c.decodeIfPresent(String.self, forKey: .locale),
            timeZone: try c.decodeIfPresent(String.self, forKey: .timeZone),
            quietHours: try c.decodeIfPresent(UserBody.QuietHoursBody.self, forKey: .quietHours),
            badge: try c.decodeIfPresent(Bool.self, forKey: .badge))
    }

    enum CodingKeys: String, CodingKey {
        case id, devices, locale, badge
        case timeZone = "time_zone"
        case quietHours = "quiet_hours"
    }

    static let maxDevices = Device.maxPerUser

    /// Decodes one line, or says what is wrong with it (a pointer into the line and a detail).
    static func decode(_ line: ArraySlice<UInt8>, with decoder: JSONDecoder) -> Result<ImportLine, ValidationFailure> {
        if NULEscape.isPresent(in: line) {
            return .failure(ValidationFailure(errors: [.init(pointer: "", message: "may not contain \\u0000")]))
        }
        do {
            return .success(try decoder.decode(ImportLine.self, from: Data(line)))
        } catch let error as DecodingError {
            return .failure(ValidationFailure(errors: [problem(error)]))
        } catch {
            return .failure(ValidationFailure(errors: [.init(pointer: "", message: "is not a valid JSON object")]))
        }
    }

    private static func problem(_ error: DecodingError) -> FieldError {
        func pointer(_ path: [any CodingKey]) -> String {
            path.map { "/" + ($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
        }
        switch error {
        case .typeMismatch(_, let context):
            if context.codingPath.isEmpty { return .init(pointer: "", message: "must be a JSON object") }
            return .init(pointer: pointer(context.codingPath), message: "has the wrong type")
        case .valueNotFound(_, let context):
            return .init(pointer: pointer(context.codingPath), message: "must not be null")
        case .keyNotFound(let key, let context):
            return .init(pointer: pointer(context.codingPath + [key]), message: "is required")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return .init(pointer: "", message: "is not a valid JSON object") }
            return .init(pointer: pointer(context.codingPath), message: "is invalid")
        @unknown default:
            return .init(pointer: "", message: "is invalid")
        }
    }

    /// The user and devices of the line, or every problem with it.
    func validated(now: Date, validator: inout RecipientValidator) -> Result<(UserProfile, [Device]), ValidationFailure>
    {
        var errors: [FieldError] = []
        guard OpaqueIdentifier.isValid(id) else {
            return .failure(.init(errors: [.init(pointer: "/id", message: OpaqueIdentifier.rule())]))
        }
        var profile: UserProfile?
        switch user.profile(id: id, validator: &validator) {
        case .success(let valid): profile = valid
        case .failure(let failure): errors += failure.errors
        }
        var devices: [Device] = []
        let entries = self.devices ?? []
        if entries.count > Self.maxDevices {
            errors.append(.init(pointer: "/devices", message: "must hold at most \(Self.maxDevices) devices"))
        }
        var seen = Set<String>()
        for (index, entry) in entries.prefix(Self.maxDevices).enumerated() {
            let prefix = "/devices/\(index)"
            guard OpaqueIdentifier.isValid(entry.installationId) else {
                errors.append(.init(pointer: prefix + "/installation_id", message: OpaqueIdentifier.rule()))
                continue
            }
            guard seen.insert(entry.installationId).inserted else {
                errors.append(.init(pointer: prefix + "/installation_id", message: "is listed twice"))
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
