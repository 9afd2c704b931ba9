import Foundation

/// A Swift value that can be sent to PostgreSQL as a text-format bind parameter.
public protocol PostgresEncodable: Sendable {
    /// The value in PostgreSQL's text input format.
    var postgresText: String { get }

    /// Appends the UTF-8 bytes of `postgresText` to `bytes`: how a parameter reaches the buffer libpq sends from.
    /// A type whose text is long (an array of a batch's rows) writes it there directly instead of making a string.
    func appendPostgresText(to bytes: inout [UInt8])
}

extension PostgresEncodable {
    /// The bytes of `postgresText`.
    public func appendPostgresText(to bytes: inout [UInt8]) {
        var text = postgresText
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }
}

extension String: PostgresEncodable {
    /// The string itself.
    public var postgresText: String { self }
}

extension Substring: PostgresEncodable {
    /// The substring as a string.
    public var postgresText: String { String(self) }
}

extension Int: PostgresEncodable {
    /// Decimal digits.
    public var postgresText: String { String(self) }
}

extension Int64: PostgresEncodable {
    /// Decimal digits.
    public var postgresText: String { String(self) }
}

extension Int32: PostgresEncodable {
    /// Decimal digits.
    public var postgresText: String { String(self) }
}

extension Bool: PostgresEncodable {
    /// `true` or `false`.
    public var postgresText: String { self ? "true" : "false" }
}

extension Double: PostgresEncodable {
    /// Shortest round-tripping decimal; `inf`, `-inf` and `nan` are accepted by PostgreSQL as well.
    public var postgresText: String { description }
}

extension Date: PostgresEncodable {
    /// ISO 8601 in UTC with microseconds, the precision of `timestamptz`.
    public var postgresText: String { PostgresTimestamp.format(self) }
}

extension UUID: PostgresEncodable {
    /// The canonical lowercase form.
    public var postgresText: String { uuidString.lowercased() }
}

/// Raw JSON text to bind to a `json` or `jsonb` parameter; the server validates it.
public struct JSONText: PostgresEncodable, Hashable {
    /// The JSON document as text.
    public let text: String

    /// Wraps JSON text that is already serialised.
    public init(_ text: String) { self.text = text }

    /// The JSON text itself.
    public var postgresText: String { text }
}
