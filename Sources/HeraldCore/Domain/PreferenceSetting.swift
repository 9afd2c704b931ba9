/// A recipient's choice for one category.
public enum PreferenceSetting: String, Sendable, Hashable, Codable, CaseIterable {
    case on
    case off
    /// Accumulate and send one summary per digest window instead of each event.
    case digest
}
