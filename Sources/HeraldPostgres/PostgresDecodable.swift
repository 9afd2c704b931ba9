import Foundation

/// A Swift value that can be read from PostgreSQL's text output format.
public protocol PostgresDecodable: Sendable {
    /// Parses a non-NULL value; `nil` when the text is not a valid value of this type.
    init?(postgresText: String)
    /// Parses a non-NULL value from the bytes of its text where they lie; by default through a string of them.
    init?(postgresBytes: UnsafeBufferPointer<UInt8>)
    /// The value a SQL NULL decodes to; `nil` means NULL is an error for this type.
    static var postgresNull: Self? { get }
}

extension PostgresDecodable {
    /// NULL is an error unless the type is an `Optional`.
    public static var postgresNull: Self? { nil }

    public init?(postgresBytes: UnsafeBufferPointer<UInt8>) {
        self.init(postgresText: String(decoding: postgresBytes, as: UTF8.self))
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    /// Decodes the wrapped value.
    public init?(postgresText: String) {
        guard let value = Wrapped(postgresText: postgresText) else { return nil }
        self = .some(value)
    }

    /// Decodes the wrapped value from the cell's bytes.
    public init?(postgresBytes: UnsafeBufferPointer<UInt8>) {
        guard let value = Wrapped(postgresBytes: postgresBytes) else { return nil }
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

    /// The same digits read in place.
    public init?(postgresBytes: UnsafeBufferPointer<UInt8>) {
        guard let value = PostgresInteger.parse(postgresBytes, as: Self.self) else { return nil }
        self = value
    }
}

extension Int64: PostgresDecodable {
    /// Decimal digits, as PostgreSQL prints integers.
    public init?(postgresText: String) { self.init(postgresText, radix: 10) }

    /// The same digits read in place.
    public init?(postgresBytes: UnsafeBufferPointer<UInt8>) {
        guard let value = PostgresInteger.parse(postgresBytes, as: Self.self) else { return nil }
        self = value
    }
}

extension Int32: PostgresDecodable {
    /// Decimal digits, as PostgreSQL prints integers.
    public init?(postgresText: String) { self.init(postgresText, radix: 10) }

    /// The same digits read in place.
    public init?(postgresBytes: UnsafeBufferPointer<UInt8>) {
        guard let value = PostgresInteger.parse(postgresBytes, as: Self.self) else { return nil }
        self = value
    }
}

extension Bool: PostgresDecodable {
    /// PostgreSQL prints booleans as `t` and `f`; the words are read as `init(postgresBytes:)` reads them.
    public init?(postgresText: String) {
        var text = postgresText
        guard let value = text.withUTF8({ Bool(postgresBytes: $0) }) else { return nil }
        self = value
    }

    /// `t` and `f`, and `true` and `false` (what a boolean cast to text prints), read in place.
    public init?(postgresBytes: UnsafeBufferPointer<UInt8>) {
        let b = postgresBytes
        switch b.count {
        case 1 where b[0] == 0x74: self = true  // t
        case 1 where b[0] == 0x66: self = false  // f
        case 4 where b[0] == 0x74 && b[1] == 0x72 && b[2] == 0x75 && b[3] == 0x65:
            self = true  // true
        case 5 where b[0] == 0x66 && b[1] == 0x61 && b[2] == 0x6C && b[3] == 0x73 && b[4] == 0x65:
            self = false  // false
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

    /// The same text read in place.
    public init?(postgresBytes: UnsafeBufferPointer<UInt8>) {
        guard let date = PostgresTimestamp.parse(bytes: postgresBytes) else { return nil }
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

/// Decimal integers as PostgreSQL prints them, read from bytes: an optional minus sign and at least one digit,
/// nothing else; `nil` for anything else or a value out of the type's range (as `Int(_:radix:)` answers).
enum PostgresInteger {
    static func parse<T: FixedWidthInteger & SignedInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as: T.Type) -> T? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { index = 1 }
        guard index < bytes.count else { return nil }
        var value: T = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            // Built negative, so that the type's minimum, one beyond its maximum's magnitude, parses too.
            let (scaled, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = scaled.subtractingReportingOverflow(T(digit))
            guard !overflowA, !overflowB else { return nil }
            value = next
            index += 1
        }
        if negative { return value }
        let (positive, overflow) = T(0).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }
}
