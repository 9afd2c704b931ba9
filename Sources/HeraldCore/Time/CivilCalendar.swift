/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), without any zone.
///
/// Pure integer math so wall-time code never needs Foundation's `Calendar` (whose zone rules come from a different
/// ICU than Herald's).
public enum CivilCalendar {
    /// The number of days from 1970-01-01 to the given date (month 1–12); negative before 1970.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        // Shift the year to start in March so the leap day is the last day of the shifted year.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = (month + 9) % 12
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date (month 1–12) of a day number.
    public static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Whether `year` has a 29 February.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in a month (month 1–12).
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The ISO weekday of a day number: 1 = Monday … 7 = Sunday.
    public static func isoWeekday(days: Int) -> Int {
        // 1970-01-01 was a Thursday (ISO 4).
        let r = (days + 3) % 7
        return (r < 0 ? r + 7 : r) + 1
    }

    /// Floor division, for turning seconds into days before 1970 too.
    public static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
