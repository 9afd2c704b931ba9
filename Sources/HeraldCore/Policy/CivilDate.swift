import Foundation

/// A proleptic Gregorian calendar date, computed arithmetically so the policy never touches a calendar object.
public struct CivilDate: Sendable, Hashable, Comparable {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Creates a date; no validation, callers build it from real dates or day counts.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (negative before).
    public init(daysSinceEpoch days: Int) {
        (year, month, day) = CivilCalendar.date(days: days)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int { CivilCalendar.days(year: year, month: month, day: day) }

    /// The day of the week.
    public var weekday: Weekday { Weekday(isoNumber: CivilCalendar.isoWeekday(days: daysSinceEpoch)) }

    /// The date `count` days later (earlier when negative).
    public func adding(days count: Int) -> CivilDate {
        CivilDate(daysSinceEpoch: daysSinceEpoch + count)
    }

    /// The local date at `instant` in `zone`.
    public static func local(at instant: Date, in zone: any ZoneRules) -> CivilDate {
        let seconds =
            Int(instant.timeIntervalSince1970.rounded(.down)) + zone.offsetSeconds(at: instant)
        return CivilDate(daysSinceEpoch: Int((Double(seconds) / 86_400).rounded(.down)))
    }

    /// This date at a wall-clock time.
    public func at(_ time: LocalTime) -> LocalDateTime {
        LocalDateTime(year: year, month: month, day: day, hour: time.hour, minute: time.minute)
    }

    /// Earlier dates first.
    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        lhs.daysSinceEpoch < rhs.daysSinceEpoch
    }
}
