import Foundation
import HeraldCore
import Testing

@testable import HeraldText

/// Quiet-hours windows computed on real zones from the OS tz data, on the days their clocks change.
@Suite("Quiet hours on real zones across DST days")
struct QuietHoursRealZoneTests {
    typealias Z = ZoneTestSupport

    static func hours(_ start: String, _ end: String, days: Set<Weekday>? = nil) -> QuietHours {
        QuietHours(start: LocalTime(start)!, end: LocalTime(end)!, days: days)
    }

    /// (zone, window, an instant inside it, expected start, expected end, expected length in minutes).
    static let windows: [(String, QuietHours, String, String, String, Int)] = [
        // Spring forward inside a 22:00-07:00 night: the night is an hour shorter than usual, never longer.
        (
            "Europe/Berlin", hours("22:00", "07:00"), "2026-03-29T03:00:00Z",
            "2026-03-28T21:00:00Z", "2026-03-29T05:00:00Z", 8 * 60
        ),
        // Fall back: an hour longer.
        (
            "Europe/Berlin", hours("22:00", "07:00"), "2026-10-25T03:00:00Z",
            "2026-10-24T20:00:00Z", "2026-10-25T06:00:00Z", 10 * 60
        ),
        (
            "America/New_York", hours("22:00", "07:00"), "2026-03-08T08:00:00Z",
            "2026-03-08T03:00:00Z", "2026-03-08T11:00:00Z", 8 * 60
        ),
        (
            "America/New_York", hours("23:00", "06:00"), "2026-11-01T07:00:00Z",
            "2026-11-01T03:00:00Z", "2026-11-01T11:00:00Z", 8 * 60
        ),
        // Lord Howe's DST is 30 minutes: the night grows and shrinks by half an hour.
        (
            "Australia/Lord_Howe", hours("22:00", "07:00"), "2026-04-04T16:00:00Z",
            "2026-04-04T11:00:00Z", "2026-04-04T20:30:00Z", 9 * 60 + 30
        ),
        (
            "Australia/Lord_Howe", hours("22:00", "07:00"), "2026-10-03T16:00:00Z",
            "2026-10-03T11:30:00Z", "2026-10-03T20:00:00Z", 8 * 60 + 30
        ),
        // +05:45 and +14 with no DST: always the wall-clock length.
        (
            "Asia/Kathmandu", hours("22:00", "07:00"), "2026-03-29T18:00:00Z",
            "2026-03-29T16:15:00Z", "2026-03-30T01:15:00Z", 9 * 60
        ),
        (
            "Pacific/Kiritimati", hours("21:30", "06:15"), "2026-07-01T10:00:00Z",
            "2026-07-01T07:30:00Z", "2026-07-01T16:15:00Z", 8 * 60 + 45
        ),
        // St John's: -03:30 / -02:30.
        (
            "America/St_Johns", hours("22:00", "07:00"), "2026-03-08T06:00:00Z",
            "2026-03-08T01:30:00Z", "2026-03-08T09:30:00Z", 8 * 60
        ),
        // A zone without DST, window inside one day.
        (
            "Asia/Tokyo", hours("13:00", "14:30"), "2026-06-01T04:10:00Z",
            "2026-06-01T04:00:00Z", "2026-06-01T05:30:00Z", 90
        ),
        // A window starting inside Berlin's spring gap opens at the first valid instant after it (03:00 CEST).
        (
            "Europe/Berlin", hours("02:30", "06:00"), "2026-03-29T02:00:00Z",
            "2026-03-29T01:00:00Z", "2026-03-29T04:00:00Z", 3 * 60
        ),
    ]

    @Test("Window bounds and length follow the wall clock", arguments: windows)
    func window(zone: String, quiet: QuietHours, inside: String, start: String, end: String, minutes: Int) throws {
        Z.requireCurrentData()
        let rules = try Z.rules(zone)
        let window = try #require(quiet.window(containing: Z.utc(inside), in: rules))
        #expect(window.start == Z.utc(start))
        #expect(window.end == Z.utc(end))
        #expect(Int(window.duration) == minutes * 60)
        #expect(quiet.deferralEnd(for: Z.utc(inside), in: rules) == Z.utc(end))
    }

    @Test("Weekday sets choose the day a window starts on, in the user's zone")
    func weekdays() throws {
        Z.requireCurrentData()
        let auckland = try Z.rules("Pacific/Auckland")
        let weeknights = Self.hours("22:00", "07:00", days: [.mon, .tue, .wed, .thu, .fri])
        // Friday 2026-07-03 23:00 in Auckland (+12) is inside Friday night's window.
        #expect(weeknights.window(containing: Z.utc("2026-07-03T11:00:00Z"), in: auckland) != nil)
        // Saturday 23:00 is not: no window starts on Saturday.
        #expect(weeknights.window(containing: Z.utc("2026-07-04T11:00:00Z"), in: auckland) == nil)
        // Saturday 06:00 still belongs to Friday night's window.
        #expect(weeknights.window(containing: Z.utc("2026-07-03T18:00:00Z"), in: auckland) != nil)
    }

    @Test("A deferral never lands inside a window, on every zone, around every 2026 transition")
    func deferralsLandOutside() throws {
        Z.requireCurrentData()
        let nights = [Self.hours("22:00", "07:00"), Self.hours("01:00", "03:00"), Self.hours("02:30", "02:45")]
        var checked = 0
        for id in [
            "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/St_Johns",
            "America/Santiago", "Europe/Dublin", "Africa/Casablanca", "Asia/Kathmandu",
        ] {
            let rules = try Z.rules(id)
            var probe = Z.utc("2026-01-01T00:00:00Z")
            while let transition = rules.nextTransition(after: probe), transition < Z.utc("2027-01-01T00:00:00Z") {
                for offset in stride(from: -86_400.0, through: 86_400, by: 900) {
                    let instant = transition.addingTimeInterval(offset)
                    for quiet in nights {
                        guard let end = quiet.deferralEnd(for: instant, in: rules) else { continue }
                        #expect(end > instant)
                        #expect(quiet.window(containing: end, in: rules) == nil, "\(id) \(instant)")
                        checked += 1
                    }
                }
                probe = transition
            }
        }
        #expect(checked > 1_000)
    }
}
