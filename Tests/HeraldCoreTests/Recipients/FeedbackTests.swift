import Foundation
import HeraldCore
import Testing

@Suite("Dead-token feedback")
struct FeedbackTests {
    @Test(
        "Permanent reasons, in any spelling and from gorush's FCM messages",
        arguments: [
            "Unregistered", "ExpiredToken", "BadDeviceToken", "DeviceTokenNotForTopic", "UNREGISTERED",
            "SENDER_ID_MISMATCH", "NotRegistered", "410", "404", "bad_device_token", "invalid-token",
            "Requested entity was not found.", "The registration token is not a valid FCM registration token",
            "SenderId mismatch",
        ])
    func permanent(reason: String) {
        #expect(DeadTokenReason.classify(reason) == .permanent)
    }

    @Test(
        "Transient and unknown reasons never deactivate",
        arguments: [
            "TooManyRequests", "InternalServerError", "ServiceUnavailable", "UNAVAILABLE", "INTERNAL",
            "QUOTA_EXCEEDED", "429", "500", "503", "PayloadTooLarge", "INVALID_ARGUMENT", "", "something new",
        ])
    func transient(reason: String) {
        #expect(DeadTokenReason.classify(reason) == .transient)
    }

    static let registered = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("The outcome follows APNs 410 semantics: a registration after the failure wins")
    func outcome() {
        let before = Self.registered.addingTimeInterval(-1)
        let after = Self.registered.addingTimeInterval(1)
        let device = (active: true, lastRegisteredAt: Self.registered)
        #expect(FeedbackOutcome.decide(reasonClass: .permanent, failedAt: after, device: device) == .deactivated)
        #expect(
            FeedbackOutcome.decide(reasonClass: .permanent, failedAt: Self.registered, device: device) == .deactivated)
        #expect(
            FeedbackOutcome.decide(reasonClass: .permanent, failedAt: before, device: device) == .ignoredReregistered)
        #expect(FeedbackOutcome.decide(reasonClass: .transient, failedAt: after, device: device) == .ignoredTransient)
        #expect(
            FeedbackOutcome.decide(
                reasonClass: .permanent, failedAt: after, device: (active: false, lastRegisteredAt: Self.registered))
                == .alreadyInactive)
        #expect(FeedbackOutcome.decide(reasonClass: .permanent, failedAt: after, device: nil) == .unknownDevice)
        // A push's report about a token the device no longer holds: it registered again since, whenever that was.
        #expect(
            FeedbackOutcome.decide(reasonClass: .permanent, failedAt: after, device: device, holdsReportedToken: false)
                == .ignoredReregistered)
    }

    @Test("gorush platform names map to Herald's platforms")
    func gorushPlatforms() {
        #expect(FeedbackReport.platform(gorushName: "ios") == .apns)
        #expect(FeedbackReport.platform(gorushName: "android") == .fcm)
        #expect(FeedbackReport.platform(gorushName: "huawei") == nil)
        let report = FeedbackReport(
            target: .token(platform: .apns, token: "ab"), reason: "Unregistered", failedAt: Self.registered)
        #expect(report.reasonClass == .permanent)
    }
}
