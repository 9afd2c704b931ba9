/// The identifiers clients choose for users, installations and topics: opaque, ASCII, and safe in a URL path, a
/// log line and a COPY stream.
public enum OpaqueIdentifier {
    /// The longest user or installation id.
    public static let maxIdentifierLength = 128
    /// The longest topic name, e.g. `conversation:42`.
    public static let maxTopicLength = 200

    /// Whether `text` is 1 to `maxLength` characters of `A–Z a–z 0–9 . _ : @ | -`.
    public static func isValid(_ text: String, maxLength: Int = maxIdentifierLength) -> Bool {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        return bytes.allSatisfy(isAllowed)
    }

    /// The rule in words, for error details.
    public static func rule(maxLength: Int = maxIdentifierLength) -> String {
        "must be 1 to \(maxLength) characters of A-Z, a-z, 0-9 and . _ : @ | -"
    }

    /// Whether `text` has the shape of a category id: 1 to 64 of `a–z 0–9 . _ -`, starting with a letter or digit.
    public static func isCategoryId(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...64).contains(bytes.count) else { return false }
        func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard isLowerAlphanumeric(bytes[0]) else { return false }
        return bytes.dropFirst().allSatisfy {
            isLowerAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "|"),
            UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
