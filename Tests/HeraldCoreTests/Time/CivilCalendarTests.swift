import Foundation
import Testing

@testable import HeraldCore

@Suite("Civil calendar")
struct CivilCalendarTests {
    @Test("Day numbers round-trip and step by one day across 1600-2400")
    func roundTrip() {
        var previous = CivilCalendar.date(days: CivilCalendar.days(year: 1600, month: 1, day: 1) - 1)
        for days in CivilCalendar.days(
            year: 1600, month: 1, day: 1)...CivilCalendar.days(year: 2400, month: 12, day: 31)
        {
            let date = CivilCalendar.date(days: days)
            #expect(CivilCalendar.days(year: date.year, month: date.month, day: date.day) == days)
            let isNextDay =
                (date.year == previous.year && date.month == previous.month && date.day == previous.day + 1)
                || (date.day == 1
                    && previous.day == CivilCalendar.daysInMonth(year: previous.year, month: previous.month))
            if !isNextDay { Issue.record("day \(days) does not follow \(previous)") }
            previous = date
        }
    }

    @Test("Known dates and weekdays")
    func knownDates() {
        #expect(CivilCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilCalendar.days(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilCalendar.isoWeekday(days: 0) == 4)  // Thursday
        #expect(CivilCalendar.isoWeekday(days: -1) == 3)
        #expect(LocalDateTime(year: 2026, month: 11, day: 30).weekday == .mon)
        #expect(
            CivilCalendar.isLeapYear(2000) && !CivilCalendar.isLeapYear(1900)
                && CivilCalendar.isLeapYear(2024))
        #expect(CivilCalendar.floorDiv(-1, 86_400) == -1 && CivilCalendar.floorDiv(86_400, 86_400) == 1)
    }

    @Test("LocalDateTime fields and UTC seconds agree with Foundation's UTC calendar")
    func agreesWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for seconds in stride(from: -2_208_988_800, to: 4_102_444_800, by: 7_777_777) {
            let local = LocalDateTime(secondsAsUTC: seconds)
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second],
                from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(
                [local.year, local.month, local.day, local.hour, local.minute, local.second]
                    == [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second].map {
                        $0!
                    })
            #expect(local.secondsAsUTC == seconds)
        }
    }

    @Test("Validity of fields")
    func validity() {
        #expect(LocalDateTime(year: 2024, month: 2, day: 29).isValid)
        #expect(!LocalDateTime(year: 2026, month: 2, day: 29).isValid)
        #expect(!LocalDateTime(year: 2026, month: 13, day: 1).isValid)
        #expect(!LocalDateTime(year: 2026, month: 1, day: 1, hour: 24).isValid)
        #expect(
            LocalDateTime(year: 2026, month: 12, day: 31).addingDays(1)
                == LocalDateTime(year: 2027, month: 1, day: 1))
        #expect(
            LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30).description
                == "2026-03-29T02:30:00")
    }
}
