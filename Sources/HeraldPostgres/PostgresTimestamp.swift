import Foundation
import HeraldCore

/// Converts between `Date` and the ISO text form of `timestamptz`, without a formatter (and without its locale
/// and allocation costs), using the proleptic Gregorian calendar as PostgreSQL does.
enum PostgresTimestamp {
    private static let microsPerDay: Int64 = 86_400_000_000

    /// `YYYY-MM-DD HH:MM:SS.ffffff+00`, with ` BC` for years before 1.
    static func format(_ date: Date) -> String {
        if date == .distantFuture { return "infinity" }
        if date == .distantPast { return "-infinity" }
        let micros = date.wholeMicrosecondsSince1970
        let days = Int64(CivilCalendar.floorDiv(Int(micros), Int(microsPerDay)))
        var rest = micros - days * microsPerDay
        let date = CivilCalendar.date(days: Int(days))
        let (year, month, day) = (Int64(date.year), Int64(date.month), Int64(date.day))
        let hour = rest / 3_600_000_000
        rest -= hour * 3_600_000_000
        let minute = rest / 60_000_000
        rest -= minute * 60_000_000
        let second = rest / 1_000_000
        let fraction = rest - second * 1_000_000
        let era = year <= 0
        let shownYear = era ? 1 - year : year
        var yearWidth = 4
        var power: Int64 = 10_000
        while shownYear >= power && yearWidth < 19 {
            yearWidth += 1
            power = power &* 10
        }
        // The digits go straight into the string's storage: this runs for every timestamp a batch writes.
        return String(unsafeUninitializedCapacity: yearWidth + 25 + (era ? 3 : 0)) { out in
            var at = 0
            func put(_ value: Int64, _ width: Int) {
                var rest = value
                for index in stride(from: at + width - 1, through: at, by: -1) {
                    out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                at += width
            }
            func put(_ text: StaticString) {
                for index in 0..<text.utf8CodeUnitCount {
                    out[at] = text.utf8Start[index]
                    at += 1
                }
            }
            put(shownYear, yearWidth)
            put("-")
            put(month, 2)
            put("-")
            put(day, 2)
            put(" ")
            put(hour, 2)
            put(":")
            put(minute, 2)
            put(":")
            put(second, 2)
            put(".")
            put(fraction, 6)
            put("+00")
            if era { put(" BC") }
            return at
        }
    }

    /// Parses `YYYY-MM-DD HH:MM:SS[.f][±HH[:MM[:SS]]][ BC]`; `infinity` maps to the distant future and past.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// `parse` over the text's UTF-8 bytes in place.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = DigitScanner(bytes)
        if scanner.skip("infinity"), scanner.atEnd { return .distantFuture }
        if scanner.skip("-infinity"), scanner.atEnd { return .distantPast }
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
        let days = Int64(CivilCalendar.days(year: Int(year), month: Int(month), day: Int(day)))
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }
}

/// Reads digits and punctuation from UTF-8 bytes, left to right.
private struct DigitScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

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
