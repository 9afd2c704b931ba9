/// Text formatted leniently: arguments without a usable value stay visible as `{name}` and are listed.
public struct RenderedMessage: Sendable, Hashable {
    /// The formatted text.
    public let text: String
    /// Arguments that had no value.
    public let missingArguments: [String]
    /// Arguments whose value had the wrong kind and was left out.
    public let mismatchedArguments: [String]

    /// True when every argument had a usable value.
    public var isComplete: Bool { missingArguments.isEmpty && mismatchedArguments.isEmpty }
}
