import Foundation
import HeraldCore
import HeraldHTTP

/// One dead-token report as sent: Herald's own shape (`installation_id` or `token` with `platform`, `reason`,
/// `at`) or gorush's feedback hook (`platform` `ios`/`android`/`huawei`, `token`, `error`, …). A `reason` makes
/// it Herald's; otherwise an `error` makes it gorush's.
struct FeedbackEntry: Decodable {
    var installationId: String?
    var token: String?
    var platform: String?
    var reason: String?
    var at: Instant?
    var error: String?
    var notifId: String?
    var type: String?
    var message: String?

    /// `at`: ISO 8601, or milliseconds since the epoch as APNs reports its 410 timestamp.
    struct Instant: Decodable {
        var date: Date

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let milliseconds = try? container.decode(Double.self) {
                guard milliseconds.isFinite, abs(milliseconds) < 1e15 else {
                    throw DecodingError.dataCorruptedError(
                        in: container, debugDescription: "Expected milliseconds since 1970 or an ISO 8601 date-time.")
                }
                date = Date(timeIntervalSince1970: milliseconds / 1000)
                return
            }
            guard let text = try? container.decode(String.self), let parsed = ISO8601.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO 8601 date-time or milliseconds since 1970.")
            }
            date = parsed
        }
    }

    static let maxTokenLength = 4096

    /// The report, `nil` for a platform Herald does not push to, or the problems (pointers under `prefix`).
    func report(now: Date, prefix: String) -> Result<FeedbackReport?, ValidationFailure> {
        var errors: [FieldError] = []
        let reportedReason: String
        var platform: Device.Platform?
        var knownPlatform = true
        if let reason {
            reportedReason = reason
            if let name = self.platform {
                platform = Device.Platform(rawValue: name)
                if platform == nil {
                    errors.append(
                        .init(pointer: prefix + "/platform", message: "must be one of apns, fcm, webpush, wns"))
                }
            }
        } else if let error {
            // gorush: the platform is its own name, and the token is the only way to find the device.
            reportedReason = error
            guard let name = self.platform else {
                return .failure(.init(errors: [.init(pointer: prefix + "/platform", message: "is required")]))
            }
            platform = FeedbackReport.platform(gorushName: name)
            knownPlatform = platform != nil
            if token == nil { errors.append(.init(pointer: prefix + "/token", message: "is required")) }
        } else {
            return .failure(
                .init(errors: [.init(pointer: prefix + "/reason", message: "is required (or error, from gorush)")]))
        }
        let target = self.target(platform: platform, prefix: prefix, errors: &errors)
        guard errors.isEmpty else { return .failure(ValidationFailure(errors: errors)) }
        guard knownPlatform, let target else { return .success(nil) }
        return .success(FeedbackReport(target: target, reason: reportedReason, failedAt: at?.date ?? now))
    }

    private func target(
        platform: Device.Platform?, prefix: String, errors: inout [FieldError]
    ) -> FeedbackReport.Target? {
        switch (installationId, token) {
        case (let id?, nil):
            guard OpaqueIdentifier.isValid(id) else {
                errors.append(.init(pointer: prefix + "/installation_id", message: OpaqueIdentifier.rule()))
                return nil
            }
            return .installation(id)
        case (nil, let token?):
            guard RecipientValidator.isPlainText(token, maxLength: Self.maxTokenLength) else {
                errors.append(
                    .init(
                        pointer: prefix + "/token", message: "must be 1 to 4096 characters without control characters")
                )
                return nil
            }
            guard let platform else {
                if self.platform == nil {
                    errors.append(.init(pointer: prefix + "/platform", message: "is required with a token"))
                }
                return nil
            }
            return .token(platform: platform, token: DeviceTokenShape.storedForm(token, platform: platform))
        case (nil, nil):
            errors.append(.init(pointer: prefix + "/installation_id", message: "or token is required"))
            return nil
        case (_?, _?):
            errors.append(.init(pointer: prefix + "/token", message: "must be absent when installation_id is given"))
            return nil
        }
    }
}
