internal import CICUShim

/// An ICU MessageFormat template, validated by ICU for one locale, with the table of arguments it needs.
///
/// Compile when a template is saved, to reject it with a code and a position; format on the hot path through a
/// `TemplateCache`, which keeps compiled ICU handles. `format` and `render` here compile afresh on each call
/// (about 20 µs), which suits previews.
public struct MessageTemplate: Sendable, Hashable {
    /// The pattern, e.g. `{count, plural, one {# new message} other {# new messages}} from {sender}`.
    public let pattern: String
    /// The locale whose plural rules, numbers and dates the template uses.
    public let locale: LocaleTag
    /// Every argument the pattern refers to, nested ones included, in order of first appearance.
    public let arguments: [TemplateArgument]

    /// The longest accepted pattern, in UTF-8 bytes.
    public static var maximumPatternBytes: Int { Int(HM_MAX_PATTERN_BYTES) }
    /// How deeply arguments may nest inside plural/select branches, counting the outermost argument as 1.
    public static var maximumNestingDepth: Int { Int(HM_MAX_ARGUMENT_DEPTH) }

    init(pattern: String, locale: LocaleTag, handle: borrowing MessageHandle) {
        self.pattern = pattern
        self.locale = locale
        self.arguments = handle.arguments()
    }

    /// Validates `pattern` for the BCP 47 tag `locale`; the locale must be well-formed and known to ICU.
    public static func compile(pattern: String, locale: String) throws(TemplateError) -> MessageTemplate {
        let tag: LocaleTag
        do {
            tag = try LocaleTag(locale)
        } catch {
            throw TemplateError(.invalidLocale)
        }
        return try compile(pattern: pattern, locale: tag)
    }

    /// Validates `pattern` for `locale`, which must be known to ICU.
    public static func compile(pattern: String, locale: LocaleTag) throws(TemplateError) -> MessageTemplate {
        do {
            let handle = try open(pattern: pattern, locale: locale, timeZone: nil)
            return MessageTemplate(pattern: pattern, locale: locale, handle: handle)
        } catch {
            throw error.templateError ?? TemplateError(.internalFailure)
        }
    }

    /// A compiled handle for `timeZone` (an IANA id), or with no zone for validation only.
    static func open(
        pattern: String, locale: LocaleTag, timeZone: String?
    ) throws(MessageFormatError)
        -> MessageHandle
    {
        // An empty id would silently mean the process's zone.
        if let timeZone, timeZone.isEmpty { throw MessageFormatError(.unknownTimeZone) }
        // ICU would format an unknown locale with root rules ("1 new messages"), so refuse it up front.
        guard locale.hasICUData else {
            throw MessageFormatError(.invalidTemplate, templateError: TemplateError(.unknownLocale))
        }
        do {
            return try MessageHandle(pattern: pattern, locale: locale.identifier, timeZone: timeZone ?? "")
        } catch {
            if error.isUnknownTimeZone { throw MessageFormatError(.unknownTimeZone) }
            throw MessageFormatError(.invalidTemplate, templateError: error.templateError(pattern: pattern))
        }
    }

    /// The argument called `name`, if the template uses it.
    public func argument(named name: String) -> TemplateArgument? { arguments.first { $0.name == name } }

    /// The arguments, in template order, whose names are not among `fields` (e.g. the fields an event carries).
    public func arguments(missingFrom fields: some Sequence<String>) -> [String] {
        let available = Set(fields)
        return arguments.map(\.name).filter { !available.contains($0) }
    }

    /// Formats strictly in `timeZone` (an IANA id): every argument needs a value of a kind it accepts.
    public func format(
        _ values: [String: MessageValue], timeZone: String = "UTC"
    ) throws(MessageFormatError)
        -> String
    {
        let handle = try Self.open(pattern: pattern, locale: locale, timeZone: timeZone)
        return try handle.format(arguments, values, strict: true).text()
    }

    /// Formats leniently in `timeZone`: arguments without a usable value stay visible as `{name}` and are listed.
    public func render(
        _ values: [String: MessageValue], timeZone: String = "UTC"
    ) throws(MessageFormatError)
        -> RenderedMessage
    {
        let handle = try Self.open(pattern: pattern, locale: locale, timeZone: timeZone)
        return try handle.format(arguments, values, strict: false).rendered()
    }
}
