/// A day of the week, spelled as on the wire (`mon` … `sun`).
public enum Weekday: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case mon, tue, wed, thu, fri, sat, sun

    /// Monday first, as ISO 8601 orders the week.
    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
