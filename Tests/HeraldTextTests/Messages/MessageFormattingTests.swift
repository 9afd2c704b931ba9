import HeraldText
import Testing

@Suite("Formatting templates")
struct MessageFormattingTests {
    static let digest = "{count, plural, one {# new message} other {# new messages}} from {sender}"

    // CLDR 42 output: Polish and Russian group with U+00A0, Arabic uses Arabic-Indic digits and separators.
    static let digestCases: [(String, MessageValue, String)] = [
        ("en", 0, "0 new messages from Ann"),
        ("en", 1, "1 new message from Ann"),
        ("en", 2, "2 new messages from Ann"),
        ("en", 1000, "1,000 new messages from Ann"),
        ("en", 1.5, "1.5 new messages from Ann"),
        ("pl", 1, "1 new message from Ann"),
        ("pl", 22, "22 new messages from Ann"),
        ("pl", 1000, "1\u{00A0}000 new messages from Ann"),
        ("pl", 1.5, "1,5 new messages from Ann"),
        ("ru", 1, "1 new message from Ann"),
        ("ru", 21, "21 new message from Ann"),
        ("ru", 1000, "1\u{00A0}000 new messages from Ann"),
        ("ar", 1, "\u{0661} new message from Ann"),
        ("ar", 22, "\u{0662}\u{0662} new messages from Ann"),
        ("ar", 1000, "\u{0661}\u{066C}\u{0660}\u{0660}\u{0660} new messages from Ann"),
        ("ar", 1.5, "\u{0661}\u{066B}\u{0665} new messages from Ann"),
    ]

    @Test("digest template", arguments: digestCases)
    func digestTemplate(locale: String, count: MessageValue, expected: String) throws {
        let template = try MessageTemplate.compile(pattern: Self.digest, locale: locale)
        #expect(try template.format(["count": count, "sender": "Ann"]) == expected)
    }

    static let polish =
        "{count, plural, one {# nowa wiadomość} few {# nowe wiadomości} many {# nowych wiadomości} "
        + "other {# nowej wiadomości}} od {sender}"
    static let russian =
        "{count, plural, one {# новое сообщение} few {# новых сообщения} many {# новых сообщений} "
        + "other {# нового сообщения}}"
    static let arabic =
        "{count, plural, zero {لا رسائل} one {رسالة واحدة} two {رسالتان} few {# رسائل} many {# رسالة} other {# رسالة}}"

    static let nativeCases: [(String, String, MessageValue, String)] = [
        ("pl", polish, 1, "1 nowa wiadomość od Ann"),
        ("pl", polish, 2, "2 nowe wiadomości od Ann"),
        ("pl", polish, 5, "5 nowych wiadomości od Ann"),
        ("pl", polish, 22, "22 nowe wiadomości od Ann"),
        ("pl", polish, 1.5, "1,5 nowej wiadomości od Ann"),
        ("ru", russian, 1, "1 новое сообщение"),
        ("ru", russian, 3, "3 новых сообщения"),
        ("ru", russian, 11, "11 новых сообщений"),
        ("ru", russian, 21, "21 новое сообщение"),
        ("ru", russian, 1.5, "1,5 нового сообщения"),
        ("ar", arabic, 0, "لا رسائل"),
        ("ar", arabic, 2, "رسالتان"),
        ("ar", arabic, 3, "\u{0663} رسائل"),
        ("ar", arabic, 11, "\u{0661}\u{0661} رسالة"),
        ("ar", arabic, 100, "\u{0661}\u{0660}\u{0660} رسالة"),
    ]

    @Test("every CLDR category reached through MessageFormat", arguments: nativeCases)
    func nativeTemplates(locale: String, pattern: String, count: MessageValue, expected: String) throws {
        let template = try MessageTemplate.compile(pattern: pattern, locale: locale)
        #expect(try template.format(["count": count, "sender": "Ann"]) == expected)
    }

    @Test("selectordinal", arguments: [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (21, "21st")])
    func selectOrdinal(number: Int, expected: String) throws {
        let template = try MessageTemplate.compile(
            pattern: "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", locale: "en")
        #expect(try template.format(["n": .int(number)]) == expected)
    }

    @Test(
        "plural with offset and exact values",
        arguments: [
            (0, "nobody"), (1, "Ann"), (2, "Ann and 1 other"),
            (5, "Ann and 4 others"),
        ])
    func pluralOffset(count: Int, expected: String) throws {
        let template = try MessageTemplate.compile(
            pattern: "{n, plural, offset:1 =0 {nobody} =1 {{who}} one {{who} and # other} other {{who} and # others}}",
            locale: "en")
        #expect(try template.format(["n": .int(count), "who": "Ann"]) == expected)
    }

    @Test func selectTakesTextAndWholeNumbers() throws {
        let template = try MessageTemplate.compile(
            pattern: "{level, select, 1 {low} 2 {high} other {unknown}} / {g, select, female {She} other {They}}",
            locale: "en")
        #expect(try template.format(["level": 2, "g": "female"]) == "high / She")
        #expect(try template.format(["level": "9", "g": "x"]) == "unknown / They")
    }

    @Test func numbersFollowTheLocale() throws {
        let template = try MessageTemplate.compile(
            pattern: "{n, number} | {p, number, percent} | {c, number, ::currency/EUR}", locale: "de-DE")
        let text = try template.format(["n": 1234.5, "p": 0.25, "c": 1234.5])
        #expect(text == "1.234,5 | 25\u{00A0}% | 1.234,50\u{00A0}€")
    }

    @Test func templatesWithoutArgumentsFormatAsIs() throws {
        let template = try MessageTemplate.compile(pattern: "Your weekly summary is ready", locale: "en")
        #expect(template.arguments.isEmpty)
        #expect(try template.format(["unused": 1]) == "Your weekly summary is ready")
        let cache = TemplateCache()
        #expect(try cache.format(template, timeZone: "UTC", values: [:]) == "Your weekly summary is ready")
    }

    @Test func quotingFollowsICU() throws {
        let template = try MessageTemplate.compile(pattern: "it's {n} and '{n}' and ''", locale: "en")
        #expect(try template.format(["n": 3]) == "it's 3 and {n} and '")
    }

    @Test func textRoundTripsAsUTF8() throws {
        let template = try MessageTemplate.compile(pattern: "Привет, {name}! {count, plural, other {#}}", locale: "ru")
        #expect(try template.format(["name": "Zoë 👋", "count": 22]) == "Привет, Zoë 👋! 22")
    }

    @Test func longOutputIsNotTruncated() throws {
        let template = try MessageTemplate.compile(pattern: "[{a}|{b}]", locale: "en")
        let a = String(repeating: "ż", count: 1500)
        let b = String(repeating: "x", count: 700)
        #expect(try template.format(["a": .string(a), "b": .string(b)]) == "[\(a)|\(b)]")
    }

    @Test func strictFormattingReportsMissingArguments() throws {
        let template = try MessageTemplate.compile(pattern: Self.digest, locale: "en")
        let error = #expect(throws: MessageFormatError.self) { try template.format(["count": 2]) }
        #expect(error?.code == .missingArguments)
        #expect(error?.arguments == ["sender"])
        let both = #expect(throws: MessageFormatError.self) { try template.format([:]) }
        #expect(both?.arguments == ["count", "sender"])
    }

    @Test func strictFormattingReportsValuesOfTheWrongKind() throws {
        let template = try MessageTemplate.compile(pattern: Self.digest, locale: "en")
        let error = #expect(throws: MessageFormatError.self) {
            try template.format(["count": "three", "sender": "Ann"])
        }
        #expect(error?.code == .mismatchedArguments)
        #expect(error?.arguments == ["count"])
    }

    @Test func lenientRenderingKeepsMissingArgumentsVisible() throws {
        let template = try MessageTemplate.compile(pattern: Self.digest, locale: "en")
        let missingSender = try template.render(["count": 2])
        #expect(missingSender.text == "2 new messages from {sender}")
        #expect(missingSender.missingArguments == ["sender"])
        #expect(!missingSender.isComplete)
        let wrongCount = try template.render(["count": "many", "sender": "Ann"])
        #expect(wrongCount.text == "{count} from Ann")
        #expect(wrongCount.mismatchedArguments == ["count"])
        let complete = try template.render(["count": 1, "sender": "Ann", "unused": "x"])
        #expect(complete.text == "1 new message from Ann")
        #expect(complete.isComplete)
    }
}
