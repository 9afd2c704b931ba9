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
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the week.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday; index 0 is Monday.
        let index = ((daysSinceEpoch + 3) % 7 + 7) % 7
        return Weekday.allCases[index]
    }

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
