import Foundation
import Testing

@testable import HeraldCore

@Suite struct CivilDateTests {
    @Test func roundTripsAndMatchesFoundationOverFourCenturies() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // Every 7th day from 1800 to 2200 plus leap-day neighbourhoods: the arithmetic must agree with Foundation.
        for days in stride(from: -62_000, through: 84_000, by: 7) {
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            let parts = calendar.dateComponents(
                [.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: TimeInterval(days * 86_400)))
            #expect(parts.year == date.year && parts.month == date.month && parts.day == date.day)
            // Foundation: 1 = Sunday.
            let foundationWeekday = Weekday.allCases[(parts.weekday! + 5) % 7]
            #expect(date.weekday == foundationWeekday)
        }
    }

    @Test(arguments: [
        (2024, 2, 29, Weekday.thu), (2000, 2, 29, .tue), (1970, 1, 1, .thu), (2026, 6, 1, .mon), (2100, 3, 1, .mon),
    ])
    func knownDates(year: Int, month: Int, day: Int, weekday: Weekday) {
        let date = CivilDate(year: year, month: month, day: day)
        #expect(CivilDate(daysSinceEpoch: date.daysSinceEpoch) == date)
        #expect(date.weekday == weekday)
    }

    @Test func localDateFollowsTheZoneOffset() {
        let late = instant(2026, 6, 1, 23, 30)
        #expect(CivilDate.local(at: late, in: FixedOffsetZone(identifier: "x", offset: 3_600)).day == 2)
        #expect(CivilDate.local(at: late, in: FixedOffsetZone(identifier: "x", offset: -36_000)).day == 1)
        #expect(
            CivilDate.local(at: instant(2026, 6, 1, 0, 30), in: FixedOffsetZone(identifier: "x", offset: -3_600)).day
                == 31)
    }

    @Test(arguments: [("22:00", 22, 0), ("07:05", 7, 5), ("00:00", 0, 0), ("23:59", 23, 59)])
    func parsesLocalTimes(text: String, hour: Int, minute: Int) {
        let time = LocalTime(text)
        #expect(time?.hour == hour && time?.minute == minute)
        #expect(time?.text == text)
    }

    @Test(arguments: ["24:00", "7:00", "07:60", "0700", "ab:cd", "", "07:00 ", "-1:00"])
    func rejectsMalformedLocalTimes(text: String) {
        #expect(LocalTime(text) == nil)
    }
}
