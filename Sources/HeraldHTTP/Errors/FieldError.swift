/// One offending member of a request body, named by a JSON pointer such as `/quiet_hours/start`.
public struct FieldError: Sendable, Hashable, Codable {
    /// The RFC 6901 pointer to the member; an empty string means the whole body.
    public var pointer: String
    /// What is wrong with it, for a human.
    public var detail: String

    /// Creates a field error.
    public init(pointer: String, detail: String) {
        self.pointer = pointer
        self.detail = detail
    }
}
