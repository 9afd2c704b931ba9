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
        guard text.utf8.count == 12, let bytes = Base64URL.decode(text), bytes.count == 9,
            bytes.first == Self.version
        else { return nil }
        let position = bytes.dropFirst().reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard position >= 0 else { return nil }
        self.position = position
    }

    /// The opaque text form, 12 base64url characters.
    public var text: String {
        // Nine bytes are exactly three base64 groups, so no padding; they are built on the stack, as this runs for
        // every feed item.
        let position = UInt64(bitPattern: self.position)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 9) { bytes in
            bytes[0] = Self.version
            for index in 1..<9 {
                bytes[index] = UInt8(truncatingIfNeeded: position >> (64 - 8 * UInt64(index)))
            }
            return Base64URL.encode(UnsafeBufferPointer(bytes))
        }
    }

    /// Orders by position.
    public static func < (lhs: FeedCursor, rhs: FeedCursor) -> Bool {
        lhs.position < rhs.position
    }
}
