/// One offending member of a request body, named by a JSON pointer such as `/quiet_hours/start`.
public struct FieldError: Sendable, Hashable, Codable {
    /// The RFC 6901 pointer to the member; an empty string means the whole body.
    public var pointer: String
    /// What is wrong with it, for a human.
    public var detail: String
    /// A stable machine-readable reason such as `out_of_range`, when the validator gives one.
    public var code: String?
    /// For text the server parses (templates): where the problem is, counted in characters from the start.
    public var offset: Int?

    /// Creates a field error.
    public init(pointer: String, detail: String, code: String? = nil, offset: Int? = nil) {
        self.pointer = pointer
        self.detail = detail
        self.code = code
        self.offset = offset
    }
}
