/// A day of the week, numbered as in ISO 8601 (Monday = 1 … Sunday = 7).
public enum Weekday: Int, Sendable, Hashable, Codable, CaseIterable {
    case monday = 1
    case tuesday, wednesday, thursday, friday, saturday, sunday
}
