import Foundation
import HeraldCore

/// Streams validated import rows into the staging table's COPY; one user row per good line, then one row per
/// device of that line.
public final class ImportWriter {
    private let copy: CopyWriter

    init(_ copy: CopyWriter) { self.copy = copy }

    /// Stages the user of input line `line`.
    public func appendUser(line: Int, _ profile: UserProfile) throws {
        let quiet = profile.quietHours
        try copy.append([
            line, "u", profile.id, profile.locale, profile.timeZone, quiet?.start.minutesSinceMidnight,
            quiet?.end.minutesSinceMidnight, quiet?.days.map(WeekdayMask.mask), profile.badge,
            nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
        ])
    }

    /// Stages a device of input line `line`; its user must be staged from the same line.
    public func appendDevice(line: Int, _ device: Device) throws {
        try copy.append([
            line, "d", device.userId, nil, nil, nil, nil, nil, nil,
            device.installationId, device.platform.rawValue, device.token, device.webPushKeys?.p256dh,
            device.webPushKeys?.auth, device.environment.rawValue, device.appId, device.locale, device.appVersion,
            device.appBuildsNotifications,
        ])
    }
}
