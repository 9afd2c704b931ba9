import HeraldCore

/// A POSIX TZ string as found in a TZif footer (RFC 8536 §3.3, with the v3 extension of hours up to ±167).
///
/// Offsets here are in seconds east of UTC (the POSIX text counts them westward).
struct POSIXZoneRule: Equatable {
    /// A day of the year on which DST starts or ends.
    enum RuleDate: Equatable {
        /// `Jn`: day 1–365, 29 February never counted.
        case julian(Int)
        /// `n`: day 0–365, 29 February counted.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (5 = last) of month `m` (1–12).
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// A change of offset: its date and its local time (seconds, may lie outside 0–24 h).
    struct Change: Equatable {
        var date: RuleDate
        var time: Int
    }

    /// The daylight part of the rule.
    struct Daylight: Equatable {
        var offset: Int
        var start: Change
        var end: Change
    }

    /// Standard offset.
    var standardOffset: Int
    /// DST, when the rule has any.
    var daylight: Daylight?

    /// Parses a footer; throws on anything that is not a valid POSIX TZ string.
    init(parsing text: String) throws {
        var scanner = TZScanner(Array(text.utf8), text: text)
        try scanner.name()
        standardOffset = -(try scanner.offset())
        daylight = nil
        guard !scanner.atEnd else { return }
        try scanner.name()
        var dstOffset = standardOffset + 3600
        if !scanner.atEnd && scanner.peek != UInt8(ascii: ",") { dstOffset = -(try scanner.offset()) }
        var start = Change(date: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
        var end = Change(date: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
        if !scanner.atEnd {
            try scanner.expect(UInt8(ascii: ","))
            start = try scanner.change()
            try scanner.expect(UInt8(ascii: ","))
            end = try scanner.change()
        }
        guard scanner.atEnd else { throw scanner.failure() }
        daylight = Daylight(offset: dstOffset, start: start, end: end)
    }

    /// The day number (days since 1970-01-01) of `date` in `year`.
    static func day(of date: RuleDate, year: Int) -> Int {
        switch date {
        case .julian(let n):
            // Day 1 is 1 January and day 60 is always 1 March.
            let jan1 = CivilCalendar.days(year: year, month: 1, day: 1)
            return jan1 + n - 1 + (CivilCalendar.isLeapYear(year) && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            return CivilCalendar.days(year: year, month: 1, day: 1) + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilCalendar.days(year: year, month: month, day: 1)
            let firstWeekday = CivilCalendar.isoWeekday(days: first) % 7  // 0 = Sunday, as in POSIX
            var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
            while dayOfMonth > CivilCalendar.daysInMonth(year: year, month: month) { dayOfMonth -= 7 }
            return first + dayOfMonth - 1
        }
    }

    /// The UTC instants at which DST starts and ends in `year` (nil without DST).
    func changes(year: Int) -> (start: Int, end: Int)? {
        guard let daylight else { return nil }
        let start =
            Self.day(of: daylight.start.date, year: year) * 86_400 + daylight.start.time - standardOffset
        let end =
            Self.day(of: daylight.end.date, year: year) * 86_400 + daylight.end.time - daylight.offset
        return (start, end)
    }

    /// True when the rule is "DST all year" (zic writes permanent DST this way), which has no real changes.
    var isPermanentDaylight: Bool {
        guard let this = changes(year: 2001), let next = changes(year: 2002) else { return false }
        return this.start < this.end && this.end >= next.start
    }
}

/// Character scanner for POSIX TZ strings.
private struct TZScanner {
    let bytes: [UInt8]
    let text: String
    var index = 0

    init(_ bytes: [UInt8], text: String) {
        self.bytes = bytes
        self.text = text
    }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8 { bytes[index] }

    func failure() -> TimeZoneDataError {
        TimeZoneDataError(.badSource, "unsupported POSIX TZ string \"\(text)\"")
    }

    mutating func expect(_ byte: UInt8) throws {
        guard !atEnd, peek == byte else { throw failure() }
        index += 1
    }

    /// A zone abbreviation: `<...>` or three or more letters.
    mutating func name() throws {
        if !atEnd && peek == UInt8(ascii: "<") {
            guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { throw failure() }
            index = close + 1
            return
        }
        let start = index
        while !atEnd, (65...90).contains(peek) || (97...122).contains(peek) { index += 1 }
        guard index - start >= 3 else { throw failure() }
    }

    mutating func number() throws -> Int {
        let start = index
        var value = 0
        while !atEnd, (48...57).contains(peek) {
            value = value * 10 + Int(peek - 48)
            index += 1
        }
        guard index > start else { throw failure() }
        return value
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, sign as written.
    mutating func offset() throws -> Int {
        var sign = 1
        if !atEnd && (peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-")) {
            sign = peek == UInt8(ascii: "-") ? -1 : 1
            index += 1
        }
        var seconds = try number() * 3600
        if !atEnd && peek == UInt8(ascii: ":") {
            index += 1
            seconds += try number() * 60
            if !atEnd && peek == UInt8(ascii: ":") {
                index += 1
                seconds += try number()
            }
        }
        return sign * seconds
    }

    mutating func change() throws -> POSIXZoneRule.Change {
        let date: POSIXZoneRule.RuleDate
        if peek == UInt8(ascii: "J") {
            index += 1
            let n = try number()
            guard (1...365).contains(n) else { throw failure() }
            date = .julian(n)
        } else if peek == UInt8(ascii: "M") {
            index += 1
            let month = try number()
            try expect(UInt8(ascii: "."))
            let week = try number()
            try expect(UInt8(ascii: "."))
            let weekday = try number()
            guard (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else {
                throw failure()
            }
            date = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            let n = try number()
            guard (0...365).contains(n) else { throw failure() }
            date = .zeroBased(n)
        }
        var time = 7200
        if !atEnd && peek == UInt8(ascii: "/") {
            index += 1
            time = try offset()
        }
        return POSIXZoneRule.Change(date: date, time: time)
    }
}
