import Foundation

/// The shapes push services give their tokens, checked when a device registers so a typo or a token pasted into
/// the wrong platform is a clear 422 instead of a push that fails later.
public enum DeviceTokenShape {
    /// A token checked for its platform.
    public enum Verdict: Sendable, Hashable {
        /// The token in canonical form.
        case valid(String)
        /// What is wrong, with a pointer relative to the token member.
        case invalid(FieldError)
    }

    /// The longest Web Push endpoint or WNS channel URI accepted.
    public static let maxURLLength = 2048
    /// The longest FCM registration token accepted.
    public static let maxFCMTokenLength = 4096

    /// The form a token is stored and compared in: APNs hex in lowercase, every other platform's as it is given.
    public static func storedForm(_ token: String, platform: Device.Platform) -> String {
        platform == .apns ? token.lowercased() : token
    }

    /// The canonical token for `platform` (APNs hex is lowercased), or what is wrong with it; pointers are
    /// relative to the token member (`""` is the token itself).
    public static func canonical(_ token: String, platform: Device.Platform) -> Verdict {
        switch platform {
        case .apns: apns(token)
        case .fcm: fcm(token)
        case .webpush: httpsURL(token, pointer: "/endpoint", hostSuffix: nil)
        case .wns: httpsURL(token, pointer: "", hostSuffix: "notify.windows.com")
        }
    }

    /// Problems with a Web Push subscription's keys: `p256dh` is an uncompressed P-256 point (65 bytes starting
    /// with 4) and `auth` a 16-byte secret, both base64url.
    public static func webPushKeyErrors(p256dh: String, auth: String) -> [FieldError] {
        var errors: [FieldError] = []
        // Browsers send base64url; some push libraries send standard base64, padded or not.
        let point = Base64URL.decode(p256dh, acceptingStandardAlphabet: true)
        if point?.count != 65 || point?.first != 4 {
            errors.append(
                FieldError(
                    pointer: "/p256dh", code: "invalid_key",
                    message: "must be the base64url form of an uncompressed P-256 public key (65 bytes)"))
        }
        if Base64URL.decode(auth, acceptingStandardAlphabet: true)?.count != 16 {
            errors.append(
                FieldError(
                    pointer: "/auth", code: "invalid_key", message: "must be the base64url form of 16 random bytes"))
        }
        return errors
    }

    /// APNs device tokens are hex; Apple warns not to assume a length, so any even count of 32 to 512 digits goes.
    private static func apns(_ token: String) -> Verdict {
        let bytes = token.utf8
        guard (32...512).contains(bytes.count), bytes.count % 2 == 0, bytes.allSatisfy(isHexDigit) else {
            return .invalid(
                FieldError(
                    pointer: "", code: "invalid_token",
                    message: "must be an APNs device token: an even number (32 to 512) of hex digits"))
        }
        return .valid(storedForm(token, platform: .apns))
    }

    /// FCM registration tokens are long URL-safe strings, usually with a colon after the instance id.
    private static func fcm(_ token: String) -> Verdict {
        let bytes = token.utf8
        guard (32...maxFCMTokenLength).contains(bytes.count), bytes.allSatisfy(isFCMCharacter) else {
            return .invalid(
                FieldError(
                    pointer: "", code: "invalid_token",
                    message: "must be an FCM registration token: 32 to 4096 characters of A-Z a-z 0-9 - _ : ."))
        }
        return .valid(token)
    }

    /// Web Push endpoints and WNS channel URIs are absolute https URLs (WNS on a `notify.windows.com` host).
    private static func httpsURL(_ text: String, pointer: String, hostSuffix: String?) -> Verdict {
        let what = hostSuffix == nil ? "a Web Push endpoint" : "a WNS channel URI"
        func failure(_ detail: String) -> Verdict {
            .invalid(FieldError(pointer: pointer, code: "invalid_token", message: "must be \(what): \(detail)"))
        }
        guard text.utf8.count <= maxURLLength else { return failure("at most \(maxURLLength) characters") }
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return failure("printable ASCII without spaces")
        }
        guard text.lowercased().hasPrefix("https://"), let components = URLComponents(string: text),
            components.scheme?.lowercased() == "https"
        else { return failure("an absolute https URL") }
        guard let host = components.host?.lowercased(), !host.isEmpty, components.user == nil,
            components.password == nil
        else { return failure("an https URL with a host and no credentials") }
        if let hostSuffix, host != hostSuffix, !host.hasSuffix("." + hostSuffix) {
            return failure("an https URL on a \(hostSuffix) host")
        }
        return .valid(text)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }

    private static func isFCMCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ":"),
            UInt8(ascii: "."):
            true
        default: false
        }
    }
}
