/// Checks message templates the way the renderer will parse them (ICU MessageFormat, implemented in HeraldText).
public protocol TemplateSyntaxChecker: Sendable {
    /// The first problem in `template` for `locale`, or `nil` when it parses.
    func problem(in template: String, locale: String) -> TemplateProblem?
    /// Whether the renderer knows `locale` (else it would silently fall back to root).
    func knowsLocale(_ locale: String) -> Bool
}

/// Why a template does not parse, and where.
public struct TemplateProblem: Sendable, Hashable, Codable {
    public var offset: Int
    public var message: String

    /// Creates a template problem.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}
