/// Parses `Authorization: Bearer <token>` (RFC 6750 section 2.1).
enum BearerCredentials {
    /// The longest token accepted; API keys are far shorter, and hashing megabytes per request helps no one.
    static let maximumTokenLength = 512

    /// The token, or nil when the header is absent, uses another scheme, or the token is not token68.
    static func token(fromAuthorization header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingSpaces()
        guard !token.isEmpty, token.utf8.count <= maximumTokenLength, isToken68(token) else {
            return nil
        }
        return String(token)
    }

    private static func isToken68(_ token: Substring) -> Bool {
        var seenPadding = false
        for byte in token.utf8 {
            switch byte {
            case UInt8(ascii: "="):
                seenPadding = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                if seenPadding { return false }
            default:
                return false
            }
        }
        return token.utf8.first != UInt8(ascii: "=")
    }
}
