import Foundation

extension LocalDateTime {
    /// The wall time read as if it were UTC: seconds since 1970-01-01T00:00 of the same fields.
    public var secondsAsUTC: Int {
        CivilCalendar.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
            + second
    }

    /// The wall time whose fields, read as UTC, are `secondsAsUTC` seconds after 1970-01-01T00:00.
    public init(secondsAsUTC: Int) {
        let days = CivilCalendar.floorDiv(secondsAsUTC, 86_400)
        let rest = secondsAsUTC - days * 86_400
        let date = CivilCalendar.date(days: days)
        self.init(
            year: date.year, month: date.month, day: date.day,
            hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60
        )
    }

    /// Whether the fields name a real calendar date and a time of day from 00:00:00 to 23:59:59.
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1
            && day <= CivilCalendar.daysInMonth(year: year, month: month)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
    }

    /// The weekday of this date.
    public var weekday: Weekday {
        Weekday(isoNumber: CivilCalendar.isoWeekday(days: CivilCalendar.days(year: year, month: month, day: day)))
    }

    /// The same time of day `count` calendar days later (or earlier when negative).
    public func addingDays(_ count: Int) -> LocalDateTime {
        let date = CivilCalendar.date(
            days: CivilCalendar.days(year: year, month: month, day: day) + count)
        return LocalDateTime(
            year: date.year, month: date.month, day: date.day, hour: hour, minute: minute, second: second)
    }

    /// This date at the given time of day.
    public func at(_ time: LocalTime) -> LocalDateTime {
        LocalDateTime(
            year: year, month: month, day: day, hour: time.hour, minute: time.minute, second: 0)
    }

    /// The time of day, to the minute.
    public var timeOfDay: LocalTime {
        LocalTime(hour: hour, minute: minute)!
    }
}

extension LocalDateTime: Comparable {
    /// Orders wall times by their fields (year, month, day, hour, minute, second).
    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        lhs.secondsAsUTC < rhs.secondsAsUTC
    }
}

extension LocalDateTime: CustomStringConvertible {
    /// ISO 8601 without a zone, e.g. "2026-03-29T02:30:00".
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }
}
