import Foundation

/// Converts between `Date` and the ISO text form of `timestamptz`, without a formatter (and without its locale
/// and allocation costs), using the proleptic Gregorian calendar as PostgreSQL does.
enum PostgresTimestamp {
    private static let microsPerDay: Int64 = 86_400_000_000

    /// `YYYY-MM-DD HH:MM:SS.ffffff+00`, with ` BC` for years before 1.
    static func format(_ date: Date) -> String {
        if date == .distantFuture { return "infinity" }
        if date == .distantPast { return "-infinity" }
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let days = floorDivide(micros, microsPerDay)
        var rest = micros - days * microsPerDay
        let (year, month, day) = civil(fromDays: days)
        let hour = rest / 3_600_000_000
        rest -= hour * 3_600_000_000
        let minute = rest / 60_000_000
        rest -= minute * 60_000_000
        let second = rest / 1_000_000
        let fraction = rest - second * 1_000_000
        let era = year <= 0 ? " BC" : ""
        let shownYear = year <= 0 ? 1 - year : year
        return "\(pad(shownYear, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):"
            + "\(pad(second, 2)).\(pad(fraction, 6))+00\(era)"
    }

    /// Parses `YYYY-MM-DD HH:MM:SS[.f][±HH[:MM[:SS]]][ BC]`; `infinity` maps to the distant future and past.
    static func parse(_ text: String) -> Date? {
        if text == "infinity" { return .distantFuture }
        if text == "-infinity" { return .distantPast }
        var scanner = DigitScanner(Array(text.utf8))
        guard var year = scanner.number(minDigits: 4), scanner.skip("-"),
            let month = scanner.number(exactly: 2), scanner.skip("-"),
            let day = scanner.number(exactly: 2), scanner.skip(" ") || scanner.skip("T"),
            let hour = scanner.number(exactly: 2), scanner.skip(":"),
            let minute = scanner.number(exactly: 2), scanner.skip(":"),
            let second = scanner.number(exactly: 2)
        else { return nil }
        var micros: Int64 = 0
        if scanner.skip(".") {
            var scale: Int64 = 100_000
            var digits = 0
            while let digit = scanner.digit() {
                micros += Int64(digit) * scale
                scale /= 10
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        var offsetSeconds: Int64 = 0
        if let sign = scanner.sign() {
            guard let offsetHours = scanner.number(exactly: 2) else { return nil }
            var offset = offsetHours * 3600
            if scanner.skip(":") {
                guard let offsetMinutes = scanner.number(exactly: 2) else { return nil }
                offset += offsetMinutes * 60
                if scanner.skip(":") {
                    guard let offsetSecs = scanner.number(exactly: 2) else { return nil }
                    offset += offsetSecs
                }
            }
            offsetSeconds = sign * offset
        }
        if scanner.skip(" BC") { year = 1 - year }
        guard scanner.atEnd, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Year, month and day of a count of days since 1970-01-01 (days-to-civil over 400-year eras).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the inverse of `civil(fromDays:)`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Reads digits and punctuation from UTF-8 bytes, left to right.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func digit() -> Int? {
        guard index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
        index += 1
        return Int(bytes[index - 1] - 0x30)
    }

    mutating func number(exactly count: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<count {
            guard let d = digit() else { return nil }
            value = value * 10 + Int64(d)
        }
        return value
    }

    mutating func number(minDigits: Int) -> Int64? {
        var value: Int64 = 0
        var count = 0
        while count < 9, let d = digit() {
            value = value * 10 + Int64(d)
            count += 1
        }
        return count >= minDigits ? value : nil
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }

    mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        if matches { index += count }
        return matches
    }
}
