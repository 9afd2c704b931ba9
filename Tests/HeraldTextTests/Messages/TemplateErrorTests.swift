import HeraldText
import Testing

@Suite("Template validation")
struct TemplateErrorTests {
    // Offsets count Unicode scalars. ICU itself reports most of these at offset 0.
    static let broken: [(String, TemplateError.Code, Int)] = [
        ("{count, plural, one {x}", .unmatchedBraces, 0),
        ("{count, plural, one {x}}", .missingOther, 0),
        ("Hello {name}, {n", .unmatchedBraces, 14),
        ("Hi {name", .unmatchedBraces, 3),
        ("'{' {n", .unmatchedBraces, 4),
        ("You have {g, select, male {He}}", .missingOther, 9),
        ("{n, selectordinal, one {#st}} place", .missingOther, 0),
        ("{a, select, x {{b, plural, one {y}}} other {w}}", .missingOther, 15),
        ("{n, foo}", .unknownArgumentType, 4),
        ("{n, choice, 0#none|1#one}", .unsupportedArgumentType, 4),
        ("{n, number, ::currency/XXXX}", .badSkeleton, 23),
        ("{n, number, #,##0.0.0}", .badArgumentStyle, 12),
        ("{n, plural, one {x} fewer {y} other {z}}", .unknownPluralCategory, 20),
        ("{n, plural, one {x} one {y} other {z}}", .duplicateSelector, 20),
        ("{n, plural, =1 {x} =1 {y} other {z}}", .duplicateSelector, 19),
        ("{d, date} {d, number}", .conflictingArgumentKinds, 11),
        ("{x, select, a {A} other {B}} {x, number}", .conflictingArgumentKinds, 30),
        ("{a b}", .syntaxError, 1),
        ("{n,}", .syntaxError, 1),
        ("👋 Zoë {n, foo}", .unknownArgumentType, 10),
        ("👋 {n, plural, one {x}}", .missingOther, 2),
    ]

    @Test("broken template", arguments: broken)
    func brokenTemplate(pattern: String, code: TemplateError.Code, offset: Int) {
        let error = #expect(throws: TemplateError.self) { try MessageTemplate.compile(pattern: pattern, locale: "en") }
        #expect(error?.code == code)
        #expect(error?.offset == offset)
    }

    @Test func contextShowsTheTextAroundTheOffset() {
        let error = #expect(throws: TemplateError.self) {
            try MessageTemplate.compile(pattern: "Your order {id} costs {n, number, #,##0.0.0} today", locale: "en")
        }
        #expect(error?.code == .badArgumentStyle)
        #expect(error?.offset == 34)
        #expect(error?.context == ", number, #,##0.0.0}")
        #expect(error?.description == "bad_argument_style at 34 near \", number, #,##0.0.0}\"")
    }

    @Test func offsetsCountScalarsNotUTF16OrBytes() throws {
        let pattern = "👋👋 é {n, foo}"
        let error = #expect(throws: TemplateError.self) { try MessageTemplate.compile(pattern: pattern, locale: "en") }
        let offset = try #require(error?.offset)
        #expect(offset == 9)
        let index = pattern.unicodeScalars.index(pattern.unicodeScalars.startIndex, offsetBy: offset)
        #expect(pattern.unicodeScalars[index...].starts(with: "foo".unicodeScalars))
    }

    @Test func patternLengthIsCapped() throws {
        let limit = MessageTemplate.maximumPatternBytes
        #expect(limit == 4096)
        _ = try MessageTemplate.compile(pattern: String(repeating: "a", count: limit), locale: "en")
        let error = #expect(throws: TemplateError.self) {
            try MessageTemplate.compile(pattern: String(repeating: "a", count: limit + 1), locale: "en")
        }
        #expect(error?.code == .tooLong)
        #expect(error?.offset == limit)
    }

    /// `depth` arguments, each nested in the `x` branch of the previous one.
    static func nested(_ depth: Int) -> String {
        (0..<depth).reversed().reduce("end") { inner, level in "{a\(level), select, x {\(inner)} other {}}" }
    }

    @Test func nestingDepthIsCapped() throws {
        let allowed = MessageTemplate.maximumNestingDepth
        let template = try MessageTemplate.compile(pattern: Self.nested(allowed), locale: "en")
        #expect(template.arguments.count == allowed)
        let pattern = Self.nested(allowed + 1)
        let error = #expect(throws: TemplateError.self) { try MessageTemplate.compile(pattern: pattern, locale: "en") }
        #expect(error?.code == .tooDeeplyNested)
        let deepest = try #require(pattern.range(of: "{a\(allowed),"))
        #expect(error?.offset == pattern.unicodeScalars.distance(from: pattern.startIndex, to: deepest.lowerBound))
    }

    @Test func hugeNestingIsRejectedWithoutRecursingIntoICU() {
        let pattern = String(repeating: "{a, select, x {", count: 150) + String(repeating: "} other {}}", count: 150)
        let error = #expect(throws: TemplateError.self) { try MessageTemplate.compile(pattern: pattern, locale: "en") }
        #expect(error?.code == .tooDeeplyNested)
    }

    @Test("invalid locales", arguments: ["", "en-", "en--US", "und", "x-private", "toolonglanguage"])
    func invalidLocale(locale: String) {
        let error = #expect(throws: TemplateError.self) { try MessageTemplate.compile(pattern: "hi", locale: locale) }
        #expect(error?.code == .invalidLocale)
        #expect(error?.offset == nil)
    }

    @Test("locales without ICU data", arguments: ["xx", "tlh", "zz-ZZ"])
    func unknownLocale(locale: String) {
        let error = #expect(throws: TemplateError.self) { try MessageTemplate.compile(pattern: "hi", locale: locale) }
        #expect(error?.code == .unknownLocale)
    }

    @Test func validTemplatesCompile() throws {
        let patterns = [
            "plain text", "{name}", "{n, number, ::percent}", "{d, date, ::yMMMd}", "{t, time, full}",
            "{n, spellout}", "text } with a closing brace", "{0} and {1}",
            "{n, plural, =0 {none} zero {z} one {o} two {t} few {f} many {m} other {#}}",
        ]
        for pattern in patterns {
            #expect(throws: Never.self) { try MessageTemplate.compile(pattern: pattern, locale: "en") }
        }
    }
}
