import HeraldCore

/// One yearly change of an ICU `SimpleTimeZone` rule, encoded as ICU's zoneinfo64 `Rules` vectors encode it.
///
/// `day`/`weekday` follow `SimpleTimeZone`'s constructor: weekday 0 means day of month; weekday > 0 means the
/// `day`-th (negative: from the end) such weekday (1 = Sunday); weekday < 0 means the first `-weekday` on or after
/// `day`, or, with a negative `day`, the last one on or before `-day`.
struct ICUAnnualChange: Equatable, Hashable {
    /// ICU's time modes.
    enum Mode: Int {
        case wall = 0
        case standard = 1
        case utc = 2
    }

    var month: Int  // 0-11
    var day: Int
    var weekday: Int
    var time: Int  // seconds, 0...86400
    var mode: Mode

    /// The day number of this change in `year`, or nil if the encoding leaves the month (ICU would misbehave).
    func dayNumber(year: Int) -> Int? {
        let month1 = month + 1
        let length = CivilCalendar.daysInMonth(year: year, month: month1)
        let first = CivilCalendar.days(year: year, month: month1, day: 1)
        func sundayBased(_ dayNumber: Int) -> Int { CivilCalendar.isoWeekday(days: dayNumber) % 7 + 1 }
        var dayOfMonth: Int
        if weekday == 0 {
            dayOfMonth = day
        } else if weekday > 0 {
            if day > 0 {
                dayOfMonth = 1 + (weekday - sundayBased(first) + 7) % 7 + 7 * (day - 1)
            } else {
                let last = first + length - 1
                dayOfMonth = length - (sundayBased(last) - weekday + 7) % 7 + 7 * (day + 1)
            }
        } else if day > 0 {
            dayOfMonth = day + (-weekday - sundayBased(first + day - 1) + 7) % 7
        } else {
            dayOfMonth = -day - (sundayBased(first - day - 1) - -weekday + 7) % 7
        }
        guard dayOfMonth >= 1 && dayOfMonth <= length else { return nil }
        return first + dayOfMonth - 1
    }

    /// The UTC instant of this change in `year`, given the standard offset and the offset in effect before it.
    func instant(year: Int, standardOffset: Int, offsetBefore: Int) -> Int? {
        guard let day = dayNumber(year: year) else { return nil }
        let local = day * 86_400 + time
        switch mode {
        case .wall: return local - offsetBefore
        case .standard: return local - standardOffset
        case .utc: return local
        }
    }
}

/// A final rule as ICU stores it: DST start and end changes plus the saving, applied from `finalYear` on.
struct ICUFinalRule: Equatable, Hashable {
    var start: ICUAnnualChange
    var end: ICUAnnualChange
    var savings: Int
    var standardOffset: Int

    /// The 11 ints of a zoneinfo64 `Rules` entry.
    var vector: [Int] {
        [
            start.month, start.day, start.weekday, start.time, start.mode.rawValue,
            end.month, end.day, end.weekday, end.time, end.mode.rawValue, savings,
        ]
    }

    /// UTC instants of DST start and end in `year`.
    func changes(year: Int) -> (start: Int, end: Int)? {
        guard
            let s = start.instant(
                year: year, standardOffset: standardOffset, offsetBefore: standardOffset),
            let e = end.instant(
                year: year, standardOffset: standardOffset, offsetBefore: standardOffset + savings)
        else { return nil }
        return (s, e)
    }

    /// Converts a POSIX rule with positive DST; nil when no ICU encoding reproduces it for every year 1900–2400.
    init?(posix: POSIXZoneRule) {
        guard let daylight = posix.daylight, daylight.offset > posix.standardOffset,
            !posix.isPermanentDaylight
        else { return nil }
        let std = posix.standardOffset
        let save = daylight.offset - std
        let starts = Self.candidates(daylight.start, inStandard: 0, toUTC: std)
        let ends = Self.candidates(daylight.end, inStandard: save, toUTC: daylight.offset)
        for start in starts {
            for end in ends {
                let rule = ICUFinalRule(start: start, end: end, savings: save, standardOffset: std)
                if rule.matches(posix) {
                    self = rule
                    return
                }
            }
        }
        return nil
    }

    init(start: ICUAnnualChange, end: ICUAnnualChange, savings: Int, standardOffset: Int) {
        self.start = start
        self.end = end
        self.savings = savings
        self.standardOffset = standardOffset
    }

    /// Same instants as the POSIX rule in every year that matters, and a margin beyond.
    func matches(_ posix: POSIXZoneRule) -> Bool {
        for year in 1900...2400 {
            guard let mine = changes(year: year), let theirs = posix.changes(year: year), mine == theirs
            else {
                return false
            }
        }
        return true
    }

    /// Encodings to try, in order of preference: wall time, UTC, standard time; each shifted by whole days when
    /// its time of day falls outside ICU's 0–24 h.
    private static func candidates(
        _ change: POSIXZoneRule.Change, inStandard standardShift: Int, toUTC utcShift: Int
    ) -> [ICUAnnualChange] {
        var result: [ICUAnnualChange] = []
        let modes: [(ICUAnnualChange.Mode, Int)] = [
            (.wall, change.time), (.utc, change.time - utcShift),
            (.standard, change.time - standardShift),
        ]
        for (mode, time) in modes {
            var shift = 0
            var timeOfDay = time
            if time < 0 || time > 86_400 {
                shift = CivilCalendar.floorDiv(time, 86_400)
                timeOfDay = time - shift * 86_400
            }
            for (month, day, weekday) in encodings(change.date, shiftedBy: shift) {
                result.append(
                    ICUAnnualChange(month: month, day: day, weekday: weekday, time: timeOfDay, mode: mode))
            }
        }
        return result
    }

    /// ICU (month 0–11, day, weekday) encodings of a POSIX date moved `shift` days later.
    private static func encodings(
        _ date: POSIXZoneRule.RuleDate, shiftedBy shift: Int
    ) -> [(
        Int, Int, Int
    )] {
        switch date {
        case .monthWeekDay(let month, let week, let weekday):
            let icuWeekday = ((weekday + shift) % 7 + 7) % 7 + 1
            let shortest = month == 2 ? 28 : CivilCalendar.daysInMonth(year: 2001, month: month)
            if shift == 0 {
                return [(month - 1, week == 5 ? -1 : week, icuWeekday)]
            }
            if week < 5 {
                let from = 1 + 7 * (week - 1) + shift
                return from >= 1 && from + 6 <= shortest ? [(month - 1, from, -icuWeekday)] : []
            }
            let through = shortest + shift
            return month != 2 && shift < 0 && through - 6 >= 1 ? [(month - 1, -through, -icuWeekday)] : []
        case .julian(let n):
            let shifted = n + shift
            guard (1...365).contains(shifted) else { return [] }
            let date = CivilCalendar.date(
                days: CivilCalendar.days(year: 2001, month: 1, day: 1) + shifted - 1)
            return [(date.month - 1, date.day, 0)]
        case .zeroBased(let n):
            let shifted = n + shift
            guard (0..<59).contains(shifted), n < 59 else { return [] }
            let date = CivilCalendar.date(
                days: CivilCalendar.days(year: 2001, month: 1, day: 1) + shifted)
            return [(date.month - 1, date.day, 0)]
        }
    }
}
