/// Why formatting a template failed; names only template arguments, never their values.
public struct MessageFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The machine-readable reason.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The template itself does not compile; `templateError` says why.
        case invalidTemplate = "invalid_template"
        /// The time zone is not an IANA id ICU knows (ICU alone would silently use UTC).
        case unknownTimeZone = "unknown_time_zone"
        /// Values for `arguments` were not given.
        case missingArguments = "missing_arguments"
        /// Values for `arguments` have a kind the template cannot format (e.g. text for a plural).
        case mismatchedArguments = "mismatched_arguments"
        /// ICU failed while formatting.
        case formatFailed = "format_failed"
    }

    /// The reason.
    public let code: Code
    /// The argument names involved, in template order.
    public let arguments: [String]
    /// The compile error, for `invalidTemplate`.
    public let templateError: TemplateError?

    init(_ code: Code, arguments: [String] = [], templateError: TemplateError? = nil) {
        self.code = code
        self.arguments = arguments
        self.templateError = templateError
    }

    /// The code with the argument names or the template error.
    public var description: String {
        if let templateError { return "\(code.rawValue): \(templateError)" }
        if arguments.isEmpty { return code.rawValue }
        return "\(code.rawValue): \(arguments.joined(separator: ", "))"
    }
}
