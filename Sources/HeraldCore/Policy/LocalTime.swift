/// A wall-clock time of day with minute precision, written `HH:MM` (00:00 to 23:59).
public struct LocalTime: Sendable, Hashable, Comparable {
    public let hour: Int
    public let minute: Int

    /// A time, or `nil` when out of range.
    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Parses exactly `HH:MM`.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":") else { return nil }
        let digits = [bytes[0], bytes[1], bytes[3], bytes[4]].map { Int($0) - 0x30 }
        guard digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        self.init(hour: digits[0] * 10 + digits[1], minute: digits[2] * 10 + digits[3])
    }

    /// Minutes since midnight.
    public var minutesSinceMidnight: Int { hour * 60 + minute }

    /// The `HH:MM` spelling.
    public var text: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    /// Earlier in the day first.
    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool {
        lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
    }
}

extension LocalTime: Codable {
    /// Decodes `HH:MM`, rejecting anything else.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let time = LocalTime(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected a local time HH:MM"))
        }
        self = time
    }

    /// Encodes as `HH:MM`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
