import Foundation

/// Formats message templates (ICU MessageFormat in production, implemented in HeraldText).
public protocol TextRenderer: Sendable {
    /// `template` formatted for `locale`, with dates in the IANA `zone`; throws when it cannot be formatted.
    func render(
        template: String, locale: String, zone: String, arguments: [String: TemplateValue]
    )
        throws -> String
}

/// A value passed to a message template.
public enum TemplateValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case date(Date)

    /// The argument form of an event data value; objects, arrays and null are not template arguments.
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .bool(let flag): self = .string(flag ? "true" : "false")
        case .null, .array, .object: return nil
        }
    }
}
