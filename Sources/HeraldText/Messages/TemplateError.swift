internal import CICUShim

/// Why a template was rejected, where, and the text around that place.
public struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The machine-readable reason; the raw value is the stable code an API can return.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// ICU cannot parse the pattern here (bad argument syntax, unterminated style, bad selector).
        case syntaxError = "syntax_error"
        /// An argument or branch opened here is never closed.
        case unmatchedBraces = "unmatched_braces"
        /// The `plural`, `select` or `selectordinal` argument starting here has no `other` branch.
        case missingOther = "missing_other"
        /// `{x, type}` names a type ICU does not know.
        case unknownArgumentType = "unknown_argument_type"
        /// `choice` is deprecated; `plural` replaces it.
        case unsupportedArgumentType = "unsupported_argument_type"
        /// A `::` number or date skeleton that ICU rejects.
        case badSkeleton = "bad_skeleton"
        /// A number or date pattern style that ICU rejects.
        case badArgumentStyle = "bad_argument_style"
        /// A plural selector that is neither a CLDR category (zero, one, two, few, many, other) nor `=n`.
        case unknownPluralCategory = "unknown_plural_category"
        /// The same selector twice in one argument; ICU would silently ignore the second.
        case duplicateSelector = "duplicate_selector"
        /// One name used in ways no single value satisfies, e.g. as a date and as a number.
        case conflictingArgumentKinds = "conflicting_argument_kinds"
        /// The pattern is longer than `MessageTemplate.maximumPatternBytes`.
        case tooLong = "too_long"
        /// Arguments are nested deeper than `MessageTemplate.maximumNestingDepth`.
        case tooDeeplyNested = "too_deeply_nested"
        /// The locale is not a well-formed BCP 47 tag.
        case invalidLocale = "invalid_locale"
        /// ICU has no data for the locale, so it would format with root rules.
        case unknownLocale = "unknown_locale"
        /// ICU failed for another reason.
        case internalFailure = "internal_failure"
    }

    /// The reason.
    public let code: Code
    /// Where, in Unicode scalars (code points) from the start of the pattern; nil for locale and internal errors.
    public let offset: Int?
    /// Up to 10 scalars either side of `offset`; empty without an offset.
    public let context: String
    /// ICU's own error name, for logs.
    public let icuErrorName: String?

    /// An error without a place in the pattern.
    init(_ code: Code, icuErrorName: String? = nil) {
        self.code = code
        self.offset = nil
        self.context = ""
        self.icuErrorName = icuErrorName
    }

    /// An error at `offset` (scalars) in `pattern`.
    init(_ code: Code, offset: Int, in pattern: String, icuErrorName: String? = nil) {
        let scalars = pattern.unicodeScalars
        let clamped = min(max(offset, 0), scalars.count)
        let at = scalars.index(scalars.startIndex, offsetBy: clamped)
        let from = scalars.index(at, offsetBy: -10, limitedBy: scalars.startIndex) ?? scalars.startIndex
        let to = scalars.index(at, offsetBy: 10, limitedBy: scalars.endIndex) ?? scalars.endIndex
        self.code = code
        self.offset = clamped
        self.context = String(scalars[from..<to])
        self.icuErrorName = icuErrorName
    }

    /// The code and place, e.g. `missing_other at 0 near "{n, plural, one {x}}"`.
    public var description: String {
        guard let offset else { return code.rawValue }
        return "\(code.rawValue) at \(offset) near \"\(context)\""
    }

    /// The description plus ICU's error name.
    public var debugDescription: String {
        guard let icuErrorName else { return description }
        return "\(description) (\(icuErrorName))"
    }
}

extension TemplateError.Code {
    init(facadeCode: Int32) {
        switch facadeCode {
        case HM_ERR_SYNTAX: self = .syntaxError
        case HM_ERR_UNMATCHED_BRACES: self = .unmatchedBraces
        case HM_ERR_MISSING_OTHER: self = .missingOther
        case HM_ERR_UNKNOWN_ARGUMENT_TYPE: self = .unknownArgumentType
        case HM_ERR_UNSUPPORTED_ARGUMENT: self = .unsupportedArgumentType
        case HM_ERR_BAD_SKELETON: self = .badSkeleton
        case HM_ERR_BAD_STYLE: self = .badArgumentStyle
        case HM_ERR_UNKNOWN_PLURAL_CATEGORY: self = .unknownPluralCategory
        case HM_ERR_DUPLICATE_SELECTOR: self = .duplicateSelector
        case HM_ERR_CONFLICTING_KINDS: self = .conflictingArgumentKinds
        case HM_ERR_TOO_LONG: self = .tooLong
        case HM_ERR_TOO_DEEP: self = .tooDeeplyNested
        case HM_ERR_INVALID_LOCALE: self = .invalidLocale
        default: self = .internalFailure
        }
    }
}
