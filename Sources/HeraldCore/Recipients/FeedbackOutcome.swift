import Foundation

/// What a dead-token report did to its device.
public enum FeedbackOutcome: String, Sendable, Hashable, CaseIterable {
    /// The device stops receiving pushes; the deactivation is recorded with the reason.
    case deactivated
    /// The reason is transient (or unknown): nothing changes.
    case ignoredTransient = "ignored_transient"
    /// The device registered again after the failure, so the failure concerns an older registration.
    case ignoredReregistered = "ignored_reregistered"
    /// The device was already inactive.
    case alreadyInactive = "already_inactive"
    /// No device has this installation id or token.
    case unknownDevice = "unknown_device"
    /// The report names a platform Herald does not push to.
    case unsupportedPlatform = "unsupported_platform"

    /// The outcome for a report about a device in the given state, `nil` state meaning no such device.
    ///
    /// APNs semantics: a 410 carries the time APNs learned the token was invalid; a device registered after that
    /// instant has a token (possibly the same one) that is known to be good again, so it stays active.
    ///
    /// A report about one push (`FeedbackReport.Target.push`) names the token the push went with: a device that
    /// holds another token now has registered again since, whenever that was.
    public static func decide(
        reasonClass: DeadTokenReason.Class, failedAt: Date, device: (active: Bool, lastRegisteredAt: Date)?,
        holdsReportedToken: Bool = true
    ) -> FeedbackOutcome {
        guard let device else { return .unknownDevice }
        guard reasonClass == .permanent else { return .ignoredTransient }
        guard device.active else { return .alreadyInactive }
        if device.lastRegisteredAt > failedAt || !holdsReportedToken { return .ignoredReregistered }
        return .deactivated
    }
}
