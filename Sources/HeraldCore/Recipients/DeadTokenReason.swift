/// Sorts a push failure reason, as a delivery worker or gorush reports it, into "the token is dead" and "try again
/// later". Only reasons known to be permanent deactivate a device; anything unrecognised is treated as transient,
/// because wrongly dropping a live device loses every later push while a wrong retry costs one.
public enum DeadTokenReason {
    /// Whether a failure means the token will never work again.
    public enum Class: String, Sendable, Hashable, CaseIterable {
        /// The token is gone: stop pushing to the device.
        case permanent
        /// The push may succeed later: keep the device.
        case transient
    }

    /// Reason codes that mean a dead token, compared after `normalize`: APNs (`Unregistered`, `ExpiredToken`,
    /// `BadDeviceToken`, `DeviceTokenNotForTopic`), FCM (`UNREGISTERED`, `SENDER_ID_MISMATCH`, legacy
    /// `NotRegistered`, `InvalidRegistration`, `MismatchSenderId`), Web Push and WNS (404, 410), and Herald's own.
    static let permanentCodes: Set<String> = [
        "unregistered", "expiredtoken", "baddevicetoken", "devicetokennotfortopic",
        "senderidmismatch", "notregistered", "invalidregistration", "mismatchsenderid",
        "404", "410", "gone", "notfound", "subscriptionexpired",
        "invalidtoken", "deadtoken",
    ]

    /// Fragments of FCM's human-readable messages, which gorush forwards instead of the error code.
    static let permanentMessages: [String] = [
        "requested entity was not found",
        "not a valid fcm registration token",
        "senderid mismatch",
        "registration token is not registered",
        "registration-token-not-registered",
    ]

    /// The class of `reason`: a code (any case, with or without separators) or an FCM message text.
    public static func classify(_ reason: String) -> Class {
        if permanentCodes.contains(normalize(reason)) { return .permanent }
        let lowered = reason.lowercased()
        if permanentMessages.contains(where: { lowered.contains($0) }) { return .permanent }
        return .transient
    }

    /// Lowercase letters and digits only, so `BadDeviceToken`, `bad_device_token` and `BAD-DEVICE-TOKEN` agree.
    static func normalize(_ reason: String) -> String {
        String(String.UnicodeScalarView(reason.lowercased().unicodeScalars.filter { $0.isASCII && isAlphanumeric($0) }))
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
