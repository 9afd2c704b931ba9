/// A wall-clock time of day to the minute, e.g. the "22:00" of a quiet-hours window.
public struct LocalTime: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// Hour of the day, 0–23.
    public let hour: Int
    /// Minute of the hour, 0–59.
    public let minute: Int

    /// A time of day, or `nil` when the hour or minute is out of range.
    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Parses exactly "HH:MM" (two digits each, 00:00–23:59); anything else is `nil`.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":") else { return nil }
        func digit(_ b: UInt8) -> Int? { (48...57).contains(b) ? Int(b) - 48 : nil }
        guard let h1 = digit(bytes[0]), let h2 = digit(bytes[1]), let m1 = digit(bytes[3]),
            let m2 = digit(bytes[4])
        else { return nil }
        self.init(hour: h1 * 10 + h2, minute: m1 * 10 + m2)
    }

    /// Minutes since midnight, 0–1439.
    public var minutesSinceMidnight: Int { hour * 60 + minute }

    /// "HH:MM".
    public var description: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    /// Orders times within one day.
    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool {
        lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
    }

    /// Encodes as the "HH:MM" string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes from an "HH:MM" string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = LocalTime(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected HH:MM")
        }
        self = value
    }
}
