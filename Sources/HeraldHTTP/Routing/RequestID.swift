import HeraldCore

/// Request ids: the client's own when it is sane, otherwise a fresh random one.
public enum RequestID {
    /// The longest client-supplied id that is echoed.
    public static let maximumLength = 64

    /// The incoming `X-Request-Id` if it is 1…64 characters of `[A-Za-z0-9._-]`, else a generated id.
    public static func accepting(_ incoming: String?) -> String {
        if let incoming, isAcceptable(incoming) { return incoming }
        return generate()
    }

    /// Whether a client-supplied id is safe to echo and log.
    public static func isAcceptable(_ candidate: String) -> Bool {
        let utf8 = candidate.utf8
        guard !utf8.isEmpty, utf8.count <= maximumLength else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    /// A new id: 96 random bits as 24 hex characters.
    public static func generate() -> String {
        Hex.encode(SecureRandom.bytes(count: 12))
    }
}
