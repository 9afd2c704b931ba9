/// Deterministic identifiers: reprocessing the same event after a crash yields the same ids, so the queue can
/// refuse duplicates.
public enum NotificationIdentity {
    /// The notification id of `eventId` for `userId`: 32 hex digits of a SHA-256.
    public static func notificationId(eventId: String, userId: String) -> String {
        SHA256.hexPrefix(key("n", eventId, userId), byteCount: 16)
    }

    /// The notification id of a digest: one per user, collapse key and closing window.
    public static func digestId(userId: String, key: String, lastEventId: String) -> String {
        SHA256.hexPrefix(Self.key("d", userId, key, lastEventId), byteCount: 16)
    }

    /// The notification id of the digest of `summary`, named by its latest event.
    public static func digestId(userId: String, summary: DigestSummary) -> String {
        digestId(userId: userId, key: summary.key, lastEventId: summary.latestItems.last?.eventId ?? summary.key)
    }

    /// The notification id of a withdrawal or badge push for one device.
    public static func backgroundId(userId: String, installationId: String, seed: String) -> String {
        SHA256.hexPrefix(key("b", userId, installationId, seed), byteCount: 16)
    }

    /// An `apns-id`: a canonical lowercase UUID (version 5 layout) derived from the notification and device.
    public static func apnsId(
        notificationId: String, installationId: String, purpose: PushContent.Purpose
    ) -> String {
        var bytes = SHA256.hash(key(notificationId, installationId, purpose.rawValue))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        // 8-4-4-4-12 hex digits: a dash before bytes 4, 6, 8 and 10.
        return String(unsafeUninitializedCapacity: 36) { out in
            var written = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    out[written] = UInt8(ascii: "-")
                    written += 1
                }
                Hex.write(bytes[index], into: out, at: written)
                written += 2
            }
            return written
        }
    }

    /// The UTF-8 bytes of `parts` with a NUL between each two: what an identifier hashes. Written into one array,
    /// since identifiers are derived several times per delivery.
    private static func key(_ parts: String...) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(parts.count) { $0 + $1.utf8.count })
        for (index, part) in parts.enumerated() {
            if index > 0 { bytes.append(0) }
            bytes.append(contentsOf: part.utf8)
        }
        return bytes
    }
}
