/// A value in a structured log line.
public enum LogValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, CustomStringConvertible
{
    /// Text.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number; non-finite values are written as null.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// Absent.
    case null

    /// A string literal.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// An integer literal.
    public init(integerLiteral value: Int) {
        self = .int(value)
    }

    /// A floating-point literal.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }

    /// A boolean literal.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    /// The JSON text of the value.
    public var description: String {
        var output: [UInt8] = []
        append(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    func append(to output: inout [UInt8]) {
        switch self {
        case .string(let value): JSONStringEscaping.append(value, to: &output)
        case .int(let value): output.append(contentsOf: String(value).utf8)
        case .double(let value): output.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: output.append(contentsOf: "null".utf8)
        }
    }
}
