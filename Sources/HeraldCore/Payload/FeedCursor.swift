import Foundation

/// A position in one user's notification feed: opaque to clients (base64url of a version byte and the position),
/// monotonic per user, and stable across restarts because the position is stored with each notification.
public struct FeedCursor: Sendable, Hashable, Comparable {
    static let version: UInt8 = 1

    /// The feed position: the user's notifications are numbered 1, 2, 3… in commit order.
    public var position: Int64

    /// A cursor at `position` (0 is before the first notification).
    public init(position: Int64) {
        self.position = max(0, position)
    }

    /// Parses a cursor; nil when it is not one Herald issued.
    public init?(text: String) {
        guard text.utf8.count == 12, let data = Base64URL.decode(text), data.count == 9,
            data.first == Self.version
        else { return nil }
        let position = data.dropFirst().reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard position >= 0 else { return nil }
        self.position = position
    }

    /// The opaque text form, 12 base64url characters.
    public var text: String {
        // Nine bytes are exactly three base64 groups: no padding, and no Foundation round trip on the hot path.
        let position = UInt64(bitPattern: self.position)
        return String(unsafeUninitializedCapacity: 12) { out in
            for group in 0..<3 {
                var bits: UInt32 = 0
                for index in 0..<3 {
                    let byteIndex = group * 3 + index
                    let byte =
                        byteIndex == 0
                        ? Self.version : UInt8(truncatingIfNeeded: position >> (64 - 8 * UInt64(byteIndex)))
                    bits = bits << 8 | UInt32(byte)
                }
                for index in 0..<4 {
                    out[group * 4 + index] = Self.alphabet[Int((bits >> (18 - 6 * UInt32(index))) & 0x3F)]
                }
            }
            return 12
        }
    }

    /// The base64url alphabet (RFC 4648 section 5).
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Orders by position.
    public static func < (lhs: FeedCursor, rhs: FeedCursor) -> Bool {
        lhs.position < rhs.position
    }
}
