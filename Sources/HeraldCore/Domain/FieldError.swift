/// One invalid member of a request body, located by an RFC 6901 JSON pointer such as `/quiet_hours/start`: the
/// domain's validators return them, and the HTTP edge lists them in problem documents.
public struct FieldError: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The JSON pointer of the member, e.g. `/templates/pl-PL/body`; an empty string means the whole body.
    public var pointer: String
    /// A stable machine-readable reason such as `out_of_range`, when the check that failed names one.
    public var code: String?
    /// What is wrong with the member, for a human.
    public var message: String
    /// For text the server parses (templates): where the problem is, counted in characters from the start.
    public var offset: Int?

    /// The most errors an answer lists (for a request or for one event of a batch): an answer stays small whatever
    /// the request holds, and the first ones are enough to mend it.
    public static let listedAtMost = 100

    /// The errors an answer lists: the first `listedAtMost` of `errors`.
    public static func listed(_ errors: [FieldError]) -> [FieldError] { Array(errors.prefix(listedAtMost)) }

    /// Responses call the explanation `detail`, as RFC 9457 problem documents do.
    enum CodingKeys: String, CodingKey {
        case pointer, code, message = "detail", offset
    }

    /// The error as problem documents and batch answers list it, with the members its `Codable` form has:
    /// `pointer`, `detail`, and `code` and `offset` when known.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["pointer": .string(pointer), "detail": .string(message)]
        if let code { members["code"] = .string(code) }
        if let offset { members["offset"] = .int(offset) }
        return .object(members)
    }

    /// Creates a field error.
    public init(pointer: String, code: String? = nil, message: String, offset: Int? = nil) {
        self.pointer = pointer
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// Escapes one reference token of a JSON pointer (`~` → `~0`, `/` → `~1`).
    public static func token(_ key: String) -> String {
        // Most keys (member names, locales) hold neither character; they are returned as they are.
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The same error for a member nested in a larger document, its pointer placed under `prefix`.
    public func under(_ prefix: String) -> FieldError {
        var error = self
        error.pointer = prefix + pointer
        return error
    }

    /// `pointer: code: message`, without the code when there is none.
    public var description: String {
        "\(pointer): " + (code.map { $0 + ": " } ?? "") + message
    }
}
