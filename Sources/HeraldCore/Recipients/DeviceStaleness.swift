import Foundation

/// When a device counts as stale: FCM drops registration tokens of devices unseen for 270 days, so a device not
/// registered for that long is reported as stale (it is still pushed to until feedback says otherwise).
public enum DeviceStaleness {
    /// 270 days.
    public static let threshold: TimeInterval = 270 * 86_400

    /// Whether a device last registered at `lastRegisteredAt` is stale at `now`.
    public static func isStale(lastRegisteredAt: Date, now: Date) -> Bool {
        now.timeIntervalSince(lastRegisteredAt) > threshold
    }
}
