/// One locale's ICU MessageFormat templates for a category.
public struct LocalizedTemplates: Sendable, Hashable, Codable {
    public var title: String?
    public var body: String?
    /// Shown when the app cannot build its own notification (`app` and `combined` modes).
    public var fallbackBody: String?
    /// Used for a collapsed burst; `{count}`, `{actor_count}`, `{first_actor}`, `{others}` are available.
    public var digestTitle: String?
    public var digestBody: String?

    /// Creates a locale's templates.
    public init(
        title: String? = nil,
        body: String? = nil,
        fallbackBody: String? = nil,
        digestTitle: String? = nil,
        digestBody: String? = nil
    ) {
        self.title = title
        self.body = body
        self.fallbackBody = fallbackBody
        self.digestTitle = digestTitle
        self.digestBody = digestBody
    }

    /// The template fields with their wire names, in a stable order, for validation and rendering checks.
    public var fields: [(name: String, template: String)] {
        [
            ("title", title), ("body", body), ("fallback_body", fallbackBody),
            ("digest_title", digestTitle), ("digest_body", digestBody),
        ].compactMap { name, template in template.map { (name, $0) } }
    }

    enum CodingKeys: String, CodingKey {
        case title, body
        case fallbackBody = "fallback_body"
        case digestTitle = "digest_title"
        case digestBody = "digest_body"
    }
}
