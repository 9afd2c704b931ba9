import Foundation

/// One dead-token report from the delivery side, in either of the formats Herald accepts, reduced to what the
/// decision needs: which device, why, and when the push service saw it.
public struct FeedbackReport: Sendable, Hashable {
    /// How a report names its device.
    public enum Target: Sendable, Hashable {
        /// By Herald's installation id.
        case installation(String)
        /// By push token on a platform (a Web Push token is its endpoint).
        case token(platform: Device.Platform, token: String)
        /// The device a push of Herald's went to, with the token it went with: the report concerns that device only
        /// while it still holds that token, whichever device holds the token now.
        case push(installationId: String, platform: Device.Platform, token: String)
    }

    /// The device.
    public var target: Target
    /// The reason as reported (`Unregistered`, `UNREGISTERED`, `410`, an FCM message …).
    public var reason: String
    /// When the push service saw the failure (APNs' 410 timestamp); the report's arrival when unknown.
    public var failedAt: Date

    /// Creates a report.
    public init(target: Target, reason: String, failedAt: Date) {
        self.target = target
        self.reason = reason
        self.failedAt = failedAt
    }

    /// Whether the reason is permanent or transient.
    public var reasonClass: DeadTokenReason.Class { DeadTokenReason.classify(reason) }

    /// The platform gorush names in its feedback hook (`ios`, `android`, `huawei`), or nil for one Herald does not
    /// push to.
    public static func platform(gorushName: String) -> Device.Platform? {
        switch gorushName.lowercased() {
        case "ios": .apns
        case "android": .fcm
        default: nil
        }
    }
}
