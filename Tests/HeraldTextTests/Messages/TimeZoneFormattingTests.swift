import Foundation
import HeraldText
import Testing

@Suite("Dates in the recipient's zone")
struct TimeZoneFormattingTests {
    /// 2024-03-15T14:05:00Z.
    static let instant = Date(timeIntervalSince1970: 1_710_511_500)

    static let shortTimes: [(String, String, String)] = [
        ("en", "Europe/Berlin", "3:05\u{202F}PM"),
        ("en", "America/New_York", "10:05\u{202F}AM"),
        ("en", "US/Eastern", "10:05\u{202F}AM"),
        ("en", "Asia/Kolkata", "7:35\u{202F}PM"),
        ("en", "UTC", "2:05\u{202F}PM"),
        ("de", "Europe/Berlin", "15:05"),
        ("de", "America/New_York", "10:05"),
    ]

    @Test("short time in a zone", arguments: shortTimes)
    func shortTime(locale: String, zone: String, expected: String) throws {
        let template = try MessageTemplate.compile(pattern: "{when, time, short}", locale: locale)
        #expect(try template.format(["when": .date(Self.instant)], timeZone: zone) == expected)
    }

    @Test func zoneReachesNestedAndUntypedDates() throws {
        let template = try MessageTemplate.compile(
            pattern: "{n, plural, one {one event at {when, time, short}} other {# events from {when, time, short}}}"
                + " / {when}",
            locale: "en")
        let values: [String: MessageValue] = ["n": 2, "when": .date(Self.instant)]
        #expect(
            try template.format(values, timeZone: "America/New_York")
                == "2 events from 10:05\u{202F}AM / 3/15/24, 10:05\u{202F}AM")
        #expect(
            try template.format(values, timeZone: "Asia/Tokyo")
                == "2 events from 11:05\u{202F}PM / 3/15/24, 11:05\u{202F}PM")
    }

    @Test func dateCrossesMidnightByZone() throws {
        let template = try MessageTemplate.compile(pattern: "{when, date, ::yyyyMMdd}", locale: "en")
        let late = Date(timeIntervalSince1970: 1_710_543_600)  // 2024-03-15T23:00:00Z
        #expect(try template.format(["when": .date(late)], timeZone: "America/Los_Angeles") == "03/15/2024")
        #expect(try template.format(["when": .date(late)], timeZone: "Europe/Warsaw") == "03/16/2024")
    }

    @Test("unknown zones are rejected", arguments: ["Mars/Olympus_Mons", "GMT+05:30", "Europe/Atlantis", "", "utc x"])
    func unknownZone(zone: String) throws {
        let template = try MessageTemplate.compile(pattern: "{when, time, short}", locale: "en")
        let error = #expect(throws: MessageFormatError.self) {
            try template.format(["when": .date(Self.instant)], timeZone: zone)
        }
        #expect(error?.code == .unknownTimeZone)
        let cache = TemplateCache()
        let cached = #expect(throws: MessageFormatError.self) {
            try cache.format(
                pattern: "{when, time, short}", locale: try LocaleTag("en"), timeZone: zone,
                values: ["when": .date(Self.instant)])
        }
        #expect(cached?.code == .unknownTimeZone)
    }

    @Test func datesNeedInstants() throws {
        let template = try MessageTemplate.compile(pattern: "{when, date, short}", locale: "en")
        let error = #expect(throws: MessageFormatError.self) { try template.format(["when": 1_710_511_500]) }
        #expect(error?.code == .mismatchedArguments)
    }
}
