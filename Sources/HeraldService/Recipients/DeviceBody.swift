import Foundation
import HeraldCore
import HeraldHTTP

/// The body of `PUT /v1/devices/{installation_id}` (and a device of an import line).
struct DeviceBody: Decodable {
    var userId: String?
    var platform: String
    var token: TokenBody
    var environment: String?
    var appId: String
    var locale: String?
    var appVersion: String?
    var appBuildsNotifications: Bool?

    /// A push token: a string, or for Web Push the subscription's endpoint and keys.
    enum TokenBody: Decodable {
        case text(String)
        case webPush(WebPushSubscription)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
                return
            }
            // An object that is not a subscription reports its own missing or mistyped member.
            if (try? decoder.container(keyedBy: AnyKey.self)) != nil {
                self = .webPush(try WebPushSubscription(from: decoder))
                return
            }
            throw DecodingError.typeMismatch(
                String.self,
                .init(codingPath: decoder.codingPath, debugDescription: "expected a token string or a subscription"))
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static let maxAppIdLength = 255
    static let maxAppVersionLength = 64

    /// The device `installationId` registered at `now`, or every problem found; pointers are placed under
    /// `prefix`. `ownerId` is the user when the context names it (an import line, a client token); the body's
    /// `user_id` otherwise.
    func device(
        installationId: String, ownerId: String? = nil, now: Date, validator: inout RecipientValidator,
        prefix: String = ""
    ) -> Result<Device, ValidationFailure> {
        var errors: [FieldError] = []
        let userId = ownerId ?? userId ?? ""
        if ownerId == nil, !OpaqueIdentifier.isValid(userId) {
            let detail = self.userId == nil ? "is required" : OpaqueIdentifier.rule()
            errors.append(.init(pointer: prefix + "/user_id", message: detail))
        }
        if ownerId != nil, let userId = self.userId, userId != ownerId {
            errors.append(
                .init(
                    pointer: prefix + "/user_id",
                    message: "must be absent or the id of the user the device is registered for"))
        }
        let platform = Device.Platform(rawValue: platform)
        if platform == nil {
            errors.append(.init(pointer: prefix + "/platform", message: "must be one of apns, fcm, webpush, wns"))
        }
        let environment = Device.Environment(rawValue: environment ?? "production")
        if environment == nil {
            errors.append(.init(pointer: prefix + "/environment", message: "must be production or sandbox"))
        } else if environment == .sandbox, platform != nil, platform != .apns {
            errors.append(.init(pointer: prefix + "/environment", message: "only APNs devices have a sandbox"))
        }
        let token = platform.flatMap { checkedToken(for: $0, prefix: prefix + "/token", errors: &errors) }
        if !RecipientValidator.isPlainText(appId, maxLength: Self.maxAppIdLength) {
            errors.append(
                .init(pointer: prefix + "/app_id", message: "must be 1 to 255 characters without control characters"))
        } else if platform == .apns, !appId.utf8.allSatisfy(Self.isBundleIdCharacter) {
            errors.append(.init(pointer: prefix + "/app_id", message: "must be a bundle id (A-Z a-z 0-9 . -)"))
        }
        let locale = locale.flatMap { validator.locale($0, at: prefix + "/locale", into: &errors) }
        if let appVersion, !RecipientValidator.isPlainText(appVersion, maxLength: Self.maxAppVersionLength) {
            errors.append(
                .init(
                    pointer: prefix + "/app_version", message: "must be 1 to 64 characters without control characters")
            )
        }
        guard errors.isEmpty, let platform, let environment, let token else {
            return .failure(ValidationFailure(errors: errors))
        }
        return .success(
            Device(
                installationId: installationId, userId: userId, platform: platform, token: token.token,
                webPushKeys: token.keys, environment: environment, appId: appId, locale: locale,
                appVersion: appVersion, appBuildsNotifications: appBuildsNotifications ?? false,
                lastRegisteredAt: now))
    }

    private func checkedToken(
        for platform: Device.Platform, prefix: String, errors: inout [FieldError]
    ) -> (token: String, keys: Device.WebPushKeys?)? {
        switch (platform, token) {
        case (.webpush, .text):
            errors.append(
                .init(
                    pointer: prefix,
                    message: "must be a Web Push subscription: PushSubscription.toJSON() or {endpoint, p256dh, auth}"))
            return nil
        case (.webpush, .webPush(let subscription)):
            let keyErrors = DeviceTokenShape.webPushKeyErrors(p256dh: subscription.p256dh, auth: subscription.auth)
            errors.append(contentsOf: keyErrors.map { $0.under(prefix + subscription.keysPointer) })
            if !subscription.expirationTimeIsValid {
                errors.append(
                    .init(
                        pointer: prefix + "/expirationTime", code: "invalid_type",
                        message: "must be null or a number (milliseconds since the epoch)"))
            }
            guard
                case .valid(let canonical) = check(
                    subscription.endpoint, platform: platform, prefix: prefix, errors: &errors),
                keyErrors.isEmpty, subscription.expirationTimeIsValid
            else { return nil }
            return (canonical, Device.WebPushKeys(p256dh: subscription.p256dh, auth: subscription.auth))
        case (_, .webPush):
            errors.append(.init(pointer: prefix, message: "must be a string for platform \(platform.rawValue)"))
            return nil
        case (_, .text(let text)):
            guard case .valid(let canonical) = check(text, platform: platform, prefix: prefix, errors: &errors) else {
                return nil
            }
            return (canonical, nil)
        }
    }

    private func check(
        _ token: String, platform: Device.Platform, prefix: String, errors: inout [FieldError]
    ) -> DeviceTokenShape.Verdict {
        let verdict = DeviceTokenShape.canonical(token, platform: platform)
        if case .invalid(let error) = verdict { errors.append(error.under(prefix)) }
        return verdict
    }

    private static func isBundleIdCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
