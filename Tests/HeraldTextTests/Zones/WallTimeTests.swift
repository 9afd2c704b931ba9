import Foundation
import HeraldCore
import Testing

@testable import HeraldText

/// The wall-time API on DST days of zones with unusual rules, answered from the OS tz data through ICU.
@Suite("Wall time across DST days")
struct WallTimeTests {
    typealias Z = ZoneTestSupport

    /// (zone, local wall time, expected instant): gaps resolve to the end of the gap, repeats to the first occurrence.
    static let resolutions: [(String, String, String)] = [
        ("Europe/Berlin", "2026-03-29T02:30", "2026-03-29T01:00:00Z"),  // gap 02:00-03:00
        ("Europe/Berlin", "2026-03-29T03:00", "2026-03-29T01:00:00Z"),
        ("Europe/Berlin", "2026-03-29T01:59", "2026-03-29T00:59:00Z"),
        ("Europe/Berlin", "2026-10-25T02:30", "2026-10-25T00:30:00Z"),  // repeated: CEST first
        ("America/New_York", "2026-03-08T02:30", "2026-03-08T07:00:00Z"),
        ("America/New_York", "2026-11-01T01:30", "2026-11-01T05:30:00Z"),
        ("Australia/Lord_Howe", "2026-04-05T01:45", "2026-04-04T14:45:00Z"),  // 30-minute repeat
        ("Australia/Lord_Howe", "2026-10-04T02:15", "2026-10-03T15:30:00Z"),  // 30-minute gap
        ("Asia/Kathmandu", "2026-03-29T00:00", "2026-03-28T18:15:00Z"),
        ("Pacific/Kiritimati", "2026-01-01T00:00", "2025-12-31T10:00:00Z"),
        ("Pacific/Kiritimati", "1994-12-31T12:00", "1994-12-31T10:00:00Z"),  // the skipped day
        ("America/St_Johns", "2026-03-08T02:30", "2026-03-08T05:30:00Z"),
        ("America/St_Johns", "2026-11-01T01:30", "2026-11-01T04:00:00Z"),
        ("Asia/Tokyo", "2026-06-01T12:00", "2026-06-01T03:00:00Z"),
    ]

    @Test("Local wall time to instant by the DST policy", arguments: resolutions)
    func resolve(zone: String, local: String, expected: String) throws {
        Z.requireCurrentData()
        let rules = try Z.rules(zone)
        #expect(rules.instant(for: Z.local(local)) == Z.utc(expected))
    }

    /// (zone, transitions in 2026 with the offset after each).
    static let transitions2026: [(String, [(String, Int)])] = [
        ("Europe/Berlin", [("2026-03-29T01:00:00Z", 7200), ("2026-10-25T01:00:00Z", 3600)]),
        ("America/New_York", [("2026-03-08T07:00:00Z", -14400), ("2026-11-01T06:00:00Z", -18000)]),
        ("Australia/Lord_Howe", [("2026-04-04T15:00:00Z", 37800), ("2026-10-03T15:30:00Z", 39600)]),
        ("America/St_Johns", [("2026-03-08T05:30:00Z", -9000), ("2026-11-01T04:30:00Z", -12600)]),
        ("Asia/Kathmandu", []), ("Pacific/Kiritimati", []), ("Asia/Tokyo", []),
    ]

    @Test("Offsets and transitions", arguments: transitions2026)
    func offsetsAndTransitions(zone: String, changes: [(String, Int)]) throws {
        Z.requireCurrentData()
        let rules = try Z.rules(zone)
        var cursor = Z.utc("2026-01-01T00:00:00Z")
        for (at, offset) in changes {
            let instant = Z.utc(at)
            #expect(rules.nextTransition(after: cursor) == instant)
            #expect(rules.offsetSeconds(at: instant) == offset)
            #expect(rules.offsetSeconds(at: instant - 1) != offset)
            cursor = instant
        }
        let next = rules.nextTransition(after: cursor)
        #expect(next == nil || next! >= Z.utc("2027-01-01T00:00:00Z"))
    }

    @Test(
        "Day lengths follow the wall clock",
        arguments: [
            ("Europe/Berlin", "2026-03-29", 23 * 3600), ("Europe/Berlin", "2026-10-25", 25 * 3600),
            ("America/New_York", "2026-03-08", 23 * 3600),
            ("Australia/Lord_Howe", "2026-04-05", 24 * 3600 + 1800),
            ("Australia/Lord_Howe", "2026-10-04", 24 * 3600 - 1800),
            ("America/St_Johns", "2026-11-01", 25 * 3600), ("Asia/Kathmandu", "2026-03-29", 24 * 3600),
            ("Pacific/Kiritimati", "1994-12-31", 0),
        ])
    func dayLength(zone: String, day: String, seconds: Int) throws {
        Z.requireCurrentData()
        let rules = try Z.rules(zone)
        let start = Z.local(day + "T00:00")
        let midnight = rules.instant(for: start)
        let nextMidnight = rules.instant(for: start.addingDays(1))
        #expect(Int(nextMidnight.timeIntervalSince(midnight)) == seconds)
    }

    @Test("Next occurrence of a local time of day")
    func nextOccurrence() throws {
        Z.requireCurrentData()
        let berlin = try Z.rules("Europe/Berlin")
        let seven = LocalTime("07:00")!
        // 22:00 local on the eve of spring-forward: 07:00 the next morning is already CEST.
        #expect(
            berlin.nextOccurrence(of: seven, atOrAfter: Z.utc("2026-03-28T21:00:00Z"))
                == Z.utc("2026-03-29T05:00:00Z"))
        // Exactly at an occurrence: that occurrence.
        #expect(
            berlin.nextOccurrence(of: seven, atOrAfter: Z.utc("2026-03-29T05:00:00Z"))
                == Z.utc("2026-03-29T05:00:00Z"))
        // One second later: the next day's.
        #expect(
            berlin.nextOccurrence(of: seven, atOrAfter: Z.utc("2026-03-29T05:00:01Z"))
                == Z.utc("2026-03-30T05:00:00Z"))
        // A time inside the gap stands for the end of the gap.
        #expect(
            berlin.nextOccurrence(of: LocalTime("02:30")!, atOrAfter: Z.utc("2026-03-28T23:00:00Z"))
                == Z.utc("2026-03-29T01:00:00Z"))
        // A repeated time: its first occurrence; after that, the next day's.
        let newYork = try Z.rules("America/New_York")
        let half = LocalTime("01:30")!
        #expect(
            newYork.nextOccurrence(of: half, atOrAfter: Z.utc("2026-11-01T04:00:00Z"))
                == Z.utc("2026-11-01T05:30:00Z"))
        #expect(
            newYork.nextOccurrence(of: half, atOrAfter: Z.utc("2026-11-01T06:00:00Z"))
                == Z.utc("2026-11-02T06:30:00Z"))
        // Kiritimati skipped 31 December 1994: that day's 12:00 stands for the end of the gap.
        let kiritimati = try Z.rules("Pacific/Kiritimati")
        #expect(
            kiritimati.nextOccurrence(of: LocalTime("12:00")!, atOrAfter: Z.utc("1994-12-30T23:00:00Z"))
                == Z.utc("1994-12-31T10:00:00Z"))
        #expect(
            kiritimati.nextOccurrence(of: LocalTime("12:00")!, atOrAfter: Z.utc("1994-12-31T10:00:01Z"))
                == Z.utc("1994-12-31T22:00:00Z"))
    }

    @Test("Local date, time and weekday at an instant")
    func localFields() throws {
        Z.requireCurrentData()
        let kiritimati = try Z.rules("Pacific/Kiritimati")
        let instant = Z.utc("2026-01-01T10:00:00Z")
        #expect(kiritimati.localDateTime(at: instant) == Z.local("2026-01-02T00:00"))
        #expect(kiritimati.weekday(at: instant) == .fri)
        let stJohns = try Z.rules("America/St_Johns")
        #expect(stJohns.localDateTime(at: Z.utc("2026-07-01T12:00:00Z")) == Z.local("2026-07-01T09:30"))
        let kathmandu = try Z.rules("Asia/Kathmandu")
        #expect(
            kathmandu.localDateTime(at: Z.utc("2026-07-01T18:14:59Z")) == Z.local("2026-07-01T23:59:59"))
        #expect(kathmandu.weekday(at: Z.utc("2026-07-01T18:15:00Z")) == .thu)
    }
}
