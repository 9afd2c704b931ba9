/// One invalid field of a request body, located by an RFC 6901 JSON pointer.
public struct FieldError: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The JSON pointer of the field, e.g. `/templates/pl-PL/body`.
    public var pointer: String
    /// A stable machine-readable code, e.g. `out_of_range`.
    public var code: String
    public var message: String
    /// For template syntax errors: the character offset inside the template.
    public var offset: Int?

    /// Creates a field error.
    public init(pointer: String, code: String, message: String, offset: Int? = nil) {
        self.pointer = pointer
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// Escapes one reference token of a JSON pointer (`~` → `~0`, `/` → `~1`).
    public static func token(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    public var description: String { "\(pointer): \(code): \(message)" }
}
