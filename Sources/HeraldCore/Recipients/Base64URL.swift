import Foundation

/// Base64url (RFC 4648 §5) decoding that accepts the padded and unpadded forms, as Web Push keys come in both.
enum Base64URL {
    /// The decoded bytes, or nil when `text` is not base64url (or plain base64).
    static func decode(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !standard.contains("=") || standard.hasSuffix("=") else { return nil }
        standard = String(standard.prefix { $0 != "=" })
        let remainder = standard.utf8.count % 4
        guard remainder != 1 else { return nil }
        if remainder > 0 { standard += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: standard)
    }
}
