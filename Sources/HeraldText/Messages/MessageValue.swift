import Foundation

/// A value for one template argument: text, a whole number, a fractional number, or an instant.
public enum MessageValue: Sendable, Hashable {
    /// Text, for plain `{x}` and `select` arguments.
    case string(String)
    /// A whole number, for `plural`, `selectordinal`, `number` and plain arguments (also accepted by `select`).
    case int(Int)
    /// A fractional number, for `plural`, `selectordinal`, `number` and plain arguments.
    case double(Double)
    /// An instant, for `date` and `time` arguments; shown in the zone the template is formatted for.
    case date(Date)
}

extension MessageValue: ExpressibleByStringLiteral {
    /// A text value from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension MessageValue: ExpressibleByIntegerLiteral {
    /// A whole-number value from a literal.
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension MessageValue: ExpressibleByFloatLiteral {
    /// A fractional value from a literal.
    public init(floatLiteral value: Double) { self = .double(value) }
}
