/// Why a string is not a usable BCP 47 language tag.
public struct LocaleTagError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The machine-readable reason.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The tag is empty.
        case empty
        /// The tag is longer than 128 bytes.
        case tooLong = "too_long"
        /// The tag is not well-formed BCP 47, or names no language (`und`, private use only).
        case malformed
    }

    /// The reason.
    public let code: Code

    init(_ code: Code) { self.code = code }

    /// The code.
    public var description: String { "invalid_locale: \(code.rawValue)" }
}
