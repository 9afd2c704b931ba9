/// A day of the week, spelled as on the wire (`mon` … `sun`).
public enum Weekday: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case mon, tue, wed, thu, fri, sat, sun

    /// Monday first, as ISO 8601 orders the week.
    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

extension Weekday {
    /// The weekday numbered as in ISO 8601: Monday = 1 … Sunday = 7 (any other number wraps around).
    public init(isoNumber: Int) {
        self = Weekday.allCases[((isoNumber - 1) % 7 + 7) % 7]
    }

    /// ISO 8601 number: Monday = 1 … Sunday = 7.
    public var isoNumber: Int { Weekday.allCases.firstIndex(of: self)! + 1 }
}
