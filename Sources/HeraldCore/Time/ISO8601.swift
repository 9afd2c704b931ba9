import Foundation

/// The one text form of an instant everywhere in Herald: ISO 8601 in UTC (`2026-12-01T09:00:00Z`), with
/// milliseconds only when the instant has a fractional second; parsing takes any offset or `Z`, with or without
/// fractional seconds.
public enum ISO8601 {
    /// The instant as text.
    public static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        if let text = formatOwnForm(date) { return text }
        let style = seconds.rounded(.down) == seconds ? plainStyle : fractionalStyle
        return date.formatted(style)
    }

    /// `format` for instants of years 1970–9999, written directly, to the byte as Foundation writes them: whether
    /// there is a fraction is decided on the seconds since 1970, as `format` chooses Foundation's style, but the
    /// digits come from the seconds since the reference date, the value a `Date` holds, whose fraction is cut to
    /// milliseconds, never rounded. (Seconds since 1970 are that value plus 978,307,200, rounded to a `Double`,
    /// which can carry the fraction over a millisecond or a whole second.) Ingest writes two per event (the stored
    /// document's and the answer's) and the API one per date it shows; nil outside those years.
    static func formatOwnForm(_ date: Date) -> String? {
        let seconds = date.timeIntervalSince1970
        guard seconds >= 0, seconds < 253_402_300_800 else { return nil }
        let fractional = seconds.rounded(.down) != seconds
        let sinceReference = date.timeIntervalSinceReferenceDate
        let whole = sinceReference.rounded(.down)
        let total = Int(whole) + Int(Date.timeIntervalBetween1970AndReferenceDate)
        guard total >= 0, total < 253_402_300_800 else { return nil }
        let date = CivilCalendar.date(days: total / 86_400)
        let second = total % 86_400
        return String(unsafeUninitializedCapacity: fractional ? 24 : 20) { out in
            func put(_ value: Int, _ digits: Int, at start: Int) {
                var value = value
                for index in stride(from: start + digits - 1, through: start, by: -1) {
                    out[index] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                    value /= 10
                }
            }
            put(date.year, 4, at: 0)
            out[4] = UInt8(ascii: "-")
            put(date.month, 2, at: 5)
            out[7] = UInt8(ascii: "-")
            put(date.day, 2, at: 8)
            out[10] = UInt8(ascii: "T")
            put(second / 3_600, 2, at: 11)
            out[13] = UInt8(ascii: ":")
            put(second % 3_600 / 60, 2, at: 14)
            out[16] = UInt8(ascii: ":")
            put(second % 60, 2, at: 17)
            guard fractional else {
                out[19] = UInt8(ascii: "Z")
                return 20
            }
            out[19] = UInt8(ascii: ".")
            put(min(999, Int(((sinceReference - whole) * 1_000).rounded(.down))), 3, at: 20)
            out[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// The instant a date-time names, or nil when the text is not one.
    public static func parse(_ text: String) -> Date? {
        if let date = parseOwnForm(text) { return date }
        if let date = try? plainStyle.parse(text) { return date }
        return try? fractionalStyle.parse(text)
    }

    /// The instant of a text in the form `format` writes (`YYYY-MM-DDTHH:MM:SSZ`, or `.mmm` before the `Z`) for a
    /// valid date and time of years 1970–9999, computed directly; nil for any other text, which `parse` leaves to
    /// Foundation. Every stored event is in this form, and a worker reads each one back: this costs a small part
    /// of Foundation's parse. The instant is built from the reference date as Foundation builds it, so both give
    /// the same `Date`, to the last bit; except within 2^22 seconds (about 48 days) of the reference date, where a
    /// fraction's last bit can come out otherwise, so those texts are left to Foundation too.
    static func parseOwnForm(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 20 || bytes.count == 24, bytes[bytes.count - 1] == UInt8(ascii: "Z"),
                bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
                bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
            else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for offset in start..<start + count {
                    let digit = Int(bytes[offset]) &- 0x30
                    guard 0...9 ~= digit else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0, 4), 1970...9999 ~= year, let month = number(5, 2), 1...12 ~= month,
                let day = number(8, 2), 1...CivilCalendar.daysInMonth(year: year, month: month) ~= day,
                let hour = number(11, 2), hour < 24, let minute = number(14, 2), minute < 60,
                let second = number(17, 2), second < 60
            else { return nil }
            var milliseconds = 0
            if bytes.count == 24 {
                guard bytes[19] == UInt8(ascii: "."), let value = number(20, 3) else { return nil }
                milliseconds = value
            }
            let days = CivilCalendar.days(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
            let sinceReference = Double(seconds - Int(Date.timeIntervalBetween1970AndReferenceDate))
            guard milliseconds == 0 || abs(sinceReference) >= Self.exactFractionsFrom else { return nil }
            return Date(timeIntervalSinceReferenceDate: sinceReference + Double(milliseconds) / 1_000)
        }
    }

    /// The distance from the reference date (2^22 s) beyond which a fraction built here equals Foundation's.
    static let exactFractionsFrom: Double = 4_194_304

    private static let plainStyle = Date.ISO8601FormatStyle()
    private static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
