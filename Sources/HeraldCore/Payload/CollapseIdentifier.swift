/// Platform-safe forms of replacement keys: each platform bounds the id it replaces and withdraws by.
public enum CollapseIdentifier {
    /// APNs `apns-collapse-id` limit in bytes.
    public static let apnsMaxBytes = 64
    /// Web Push `Topic` limit in characters of the URL-safe base64 alphabet.
    public static let webPushTopicMaxLength = 32
    /// WNS `X-WNS-Tag` / `X-WNS-Group` limit in alphanumeric characters.
    public static let wnsTagMaxLength = 16

    /// FCM `android.collapse_key` length kept: short, since FCM stores it with every pending message.
    public static let fcmCollapseKeyMaxLength = 32

    /// An FCM `android.collapse_key`: `id` itself when it is ≤ 32 characters of ASCII letters, digits and
    /// `-_.:`, else `h-` and 30 hex digits of its SHA-256 (stable, so a digest collapses onto its first alert).
    public static func fcmCollapseKey(for id: String) -> String {
        let bytes = Array(id.utf8)
        let safe = bytes.allSatisfy { isURLSafeBase64($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }
        if !bytes.isEmpty, bytes.count <= fcmCollapseKeyMaxLength, safe { return id }
        return "h-" + String(SHA256.hex(id).prefix(fcmCollapseKeyMaxLength - 2))
    }

    /// `key` itself when it fits in 64 bytes, else `h-` and 62 hex digits of its SHA-256 (stable, collision-safe).
    public static func apns(for key: String) -> String {
        if !key.isEmpty, key.utf8.count <= apnsMaxBytes { return key }
        return "h-" + String(SHA256.hex(key).prefix(apnsMaxBytes - 2))
    }

    /// A Web Push `Topic`: `id` itself when it is ≤ 32 URL-safe base64 characters, else 32 characters of the
    /// base64url SHA-256 of it.
    public static func webPushTopic(for id: String) -> String {
        let bytes = Array(id.utf8)
        if !bytes.isEmpty, bytes.count <= webPushTopicMaxLength, bytes.allSatisfy(isURLSafeBase64) {
            return id
        }
        return String(Base64URL.encode(SHA256.hash(bytes)).prefix(webPushTopicMaxLength))
    }

    /// A WNS tag: `id` itself when it is ≤ 16 ASCII alphanumerics, else 16 hex digits of its SHA-256.
    public static func wnsTag(for id: String) -> String {
        let bytes = Array(id.utf8)
        if !bytes.isEmpty, bytes.count <= wnsTagMaxLength, bytes.allSatisfy(isAlphanumeric) {
            return id
        }
        return String(SHA256.hex(id).prefix(wnsTagMaxLength))
    }

    /// Whether `byte` is in the URL-safe base64 alphabet (RFC 4648 §5).
    public static func isURLSafeBase64(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
