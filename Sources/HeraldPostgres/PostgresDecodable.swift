import Foundation

/// A Swift value that can be read from PostgreSQL's text output format.
public protocol PostgresDecodable: Sendable {
    /// Parses a non-NULL value; `nil` when the text is not a valid value of this type.
    init?(postgresText: String)
    /// The value a SQL NULL decodes to; `nil` means NULL is an error for this type.
    static var postgresNull: Self? { get }
}

extension PostgresDecodable {
    /// NULL is an error unless the type is an `Optional`.
    public static var postgresNull: Self? { nil }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    /// Decodes the wrapped value.
    public init?(postgresText: String) {
        guard let value = Wrapped(postgresText: postgresText) else { return nil }
        self = .some(value)
    }

    /// NULL decodes to `nil`.
    public static var postgresNull: Self? { .some(.none) }
}

extension String: PostgresDecodable {
    /// The text as is.
    public init?(postgresText: String) { self = postgresText }
}

extension Int: PostgresDecodable {
    /// Decimal digits, as PostgreSQL prints integers.
    public init?(postgresText: String) { self.init(postgresText, radix: 10) }
}

extension Int64: PostgresDecodable {
    /// Decimal digits, as PostgreSQL prints integers.
    public init?(postgresText: String) { self.init(postgresText, radix: 10) }
}

extension Int32: PostgresDecodable {
    /// Decimal digits, as PostgreSQL prints integers.
    public init?(postgresText: String) { self.init(postgresText, radix: 10) }
}

extension Bool: PostgresDecodable {
    /// PostgreSQL prints booleans as `t` and `f`.
    public init?(postgresText: String) {
        switch postgresText {
        case "t", "true": self = true
        case "f", "false": self = false
        default: return nil
        }
    }
}

extension Double: PostgresDecodable {
    /// Decimal text, including `NaN`, `Infinity` and `-Infinity`.
    public init?(postgresText: String) { self.init(postgresText) }
}

extension Date: PostgresDecodable {
    /// A `timestamptz` in ISO output style (the connection sets `DateStyle=ISO`).
    public init?(postgresText: String) {
        guard let date = PostgresTimestamp.parse(postgresText) else { return nil }
        self = date
    }
}

extension UUID: PostgresDecodable {
    /// The canonical hyphenated form.
    public init?(postgresText: String) { self.init(uuidString: postgresText) }
}

extension JSONText: PostgresDecodable {
    /// The JSON text as the server printed it.
    public init?(postgresText: String) { self.init(postgresText) }
}
