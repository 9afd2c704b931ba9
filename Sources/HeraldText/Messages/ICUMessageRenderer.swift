import Foundation
import HeraldCore

/// HeraldCore's view of ICU MessageFormat: checks templates when a category is saved and renders them when a push
/// is built, through a shared `TemplateCache`; safe to share between threads.
///
/// Rendering is lenient: an argument without a usable value stays visible as `{name}` instead of failing the whole
/// notification, and `renderMessage` lists such arguments for previews.
public final class ICUMessageRenderer: TemplateSyntaxChecker, TextRenderer {
    private let cache: TemplateCache

    /// A renderer over a cache of at most `capacity` compiled templates.
    public init(capacity: Int = 512) {
        self.cache = TemplateCache(capacity: capacity)
    }

    /// The first problem in `template`, checked with `locale`'s rules (with English rules when ICU does not know
    /// `locale`, so a bad locale is reported once, by `knowsLocale`, not once per field).
    public func problem(in template: String, locale: String) -> TemplateProblem? {
        let tag = Self.knownTag(locale) ?? LocaleTag(canonical: "en")
        do {
            _ = try MessageTemplate.compile(pattern: template, locale: tag)
            return nil
        } catch {
            return TemplateProblem(offset: error.offset ?? 0, message: Self.explanation(of: error))
        }
    }

    /// Whether `locale` is a well-formed tag for which ICU has its own data or its language's data, so plural rules,
    /// numbers and dates are that locale's and not root's.
    public func knowsLocale(_ locale: String) -> Bool { Self.knownTag(locale) != nil }

    /// `template` formatted leniently for `locale` with dates in `zone`; an unknown zone formats in UTC rather than
    /// losing the notification.
    public func render(
        template: String, locale: String, zone: String, arguments: [String: TemplateValue]
    ) throws -> String {
        try renderMessage(template: template, locale: locale, zone: zone, arguments: arguments).text
    }

    /// Like `render`, with the arguments that had no usable value.
    public func renderMessage(
        template: String, locale: String, zone: String, arguments: [String: TemplateValue]
    ) throws(MessageFormatError) -> RenderedMessage {
        let values = arguments.mapValues(MessageValue.init)
        do {
            return try cache.render(pattern: template, locale: locale, timeZone: zone, values: values)
        } catch  where error.code == .unknownTimeZone {
            return try cache.render(pattern: template, locale: locale, timeZone: "UTC", values: values)
        }
    }

    /// The canonical form of `locale` (`pl_pl` → `pl-PL`), or nil when it is not a well-formed tag.
    public static func canonicalLocale(_ locale: String) -> String? {
        (try? LocaleTag(locale))?.identifier
    }

    private static func knownTag(_ locale: String) -> LocaleTag? {
        guard let tag = try? LocaleTag(locale) else { return nil }
        switch tag.icuData {
        case .exact: return tag
        // ICU falls back to root for made-up languages; root has no plural rules or names of its own.
        case .fallback(let parent): return parent.isEmpty || parent == "root" ? nil : tag
        case .none: return nil
        }
    }

    /// A sentence a product manager can act on, naming the place in the template.
    static func explanation(of error: TemplateError) -> String {
        let what: String
        switch error.code {
        case .syntaxError: what = "the template does not parse here"
        case .unmatchedBraces: what = "a '{' opened here is never closed"
        case .missingOther: what = "this plural, select or selectordinal has no 'other' branch"
        case .unknownArgumentType:
            what = "unknown argument type (use number, date, time, plural, select, selectordinal)"
        case .unsupportedArgumentType: what = "'choice' is not supported; use plural"
        case .badSkeleton: what = "ICU rejects this number or date skeleton"
        case .badArgumentStyle: what = "ICU rejects this number or date style"
        case .unknownPluralCategory: what = "plural selectors are zero, one, two, few, many, other or =n"
        case .duplicateSelector: what = "the same selector appears twice in one argument"
        case .conflictingArgumentKinds: what = "one argument is used as two incompatible kinds"
        case .tooLong: what = "the template is longer than \(MessageTemplate.maximumPatternBytes) bytes"
        case .tooDeeplyNested:
            what = "arguments are nested more than \(MessageTemplate.maximumNestingDepth) levels deep"
        case .invalidLocale, .unknownLocale: what = "the locale is not known"
        case .internalFailure: what = "the template could not be checked"
        }
        guard let offset = error.offset else { return "\(error.code.rawValue): \(what)" }
        return "\(error.code.rawValue) at offset \(offset) near \"\(error.context)\": \(what)"
    }
}

extension MessageValue {
    /// The ICU value of a HeraldCore template argument.
    init(_ value: TemplateValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .date(let date): self = .date(date)
        }
    }
}
