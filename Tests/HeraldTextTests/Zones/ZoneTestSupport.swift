import Foundation
import HeraldCore
import HeraldText
import Testing

/// Shared state of the zone tests: one directory for the whole run, and the data-version precondition.
enum ZoneTestSupport {
    static let directory = ICUZoneDirectory()

    /// The repository root, found from this file's location.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Fails (never skips) when ICU does not run on the OS tzdata: every other answer would be suspect.
    static func requireCurrentData(sourceLocation: SourceLocation = #_sourceLocation) {
        let status = TimeZoneData.status()
        #expect(
            status.matchesOS,
            """
            ICU runs on tz data \(status.icuVersion), the OS has \(status.osVersion ?? "?"); build the data with \
            `herald tzdata build --out DIR` and run the tests with ICU_TIMEZONE_FILES_DIR=DIR (make test does)
            """, sourceLocation: sourceLocation)
    }

    static func rules(
        _ id: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws
        -> any ZoneRules
    {
        try #require(directory.zone(id), "zone \(id) should be known", sourceLocation: sourceLocation)
    }

    /// "2026-03-29T01:00:00Z" → Date.
    static func utc(_ text: String) -> Date {
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).compactMap { Int($0) }
        let local = LocalDateTime(
            year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4],
            second: parts.count > 5 ? parts[5] : 0)
        return Date(timeIntervalSince1970: TimeInterval(local.secondsAsUTC))
    }

    /// "2026-03-29T02:30" → LocalDateTime.
    static func local(_ text: String) -> LocalDateTime {
        LocalDateTime(secondsAsUTC: Int(utc(text).timeIntervalSince1970))
    }
}
