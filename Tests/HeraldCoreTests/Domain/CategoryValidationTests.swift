import Foundation
import Testing

@testable import HeraldCore

@Suite struct CategoryValidationTests {
    @Test func aGoodCategoryHasNoErrors() {
        #expect(Fixture.category(collapse: .init(keyTemplate: "msg:{thread_id}", windowSeconds: 60)).validate().isEmpty)
    }

    @Test func namesAreCountedInCharactersAsWrittenInAnyScript() {
        // 200 Devanagari syllables of a consonant and a vowel sign: 200 characters, 400 code points, 1,200 bytes.
        var category = Fixture.category()
        category.name = String(repeating: "\u{915}\u{93F}", count: 200)
        category.description = String(repeating: "\u{915}\u{93F}", count: 2_000)
        #expect(category.validate().isEmpty)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var mutate: @Sendable (inout HeraldCore.Category) -> Void
        var pointer: String
        var code: String
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "uppercase id", mutate: { $0.id = "Chat" }, pointer: "/id", code: "invalid_format"),
        Row(name: "id starts with a dot", mutate: { $0.id = ".chat" }, pointer: "/id", code: "invalid_format"),
        Row(
            name: "id too long", mutate: { $0.id = String(repeating: "a", count: 65) }, pointer: "/id",
            code: "invalid_format"),
        Row(name: "empty name", mutate: { $0.name = "" }, pointer: "/name", code: "invalid_length"),
        Row(
            name: "a name of one letter with 1,600 combining marks (3,201 bytes)",
            mutate: { $0.name = "e" + String(repeating: "\u{301}", count: 1_600) }, pointer: "/name",
            code: "invalid_length"),
        Row(
            name: "a description of one letter with 16,000 combining marks (32,001 bytes)",
            mutate: { $0.description = "e" + String(repeating: "\u{301}", count: 16_000) },
            pointer: "/description",
            code: "invalid_length"),
        Row(name: "ttl zero", mutate: { $0.ttlSeconds = 0 }, pointer: "/ttl_seconds", code: "out_of_range"),
        Row(
            name: "ttl over 28 days", mutate: { $0.ttlSeconds = 2_419_201 }, pointer: "/ttl_seconds",
            code: "out_of_range"),
        Row(
            name: "collapse window zero", mutate: { $0.collapse = .init(keyTemplate: "k", windowSeconds: 0) },
            pointer: "/collapse/window_seconds", code: "out_of_range"),
        Row(
            name: "collapse template unknown field",
            mutate: { $0.collapse = .init(keyTemplate: "msg:{thread}", windowSeconds: 60) },
            pointer: "/collapse/key_template", code: "invalid_template"),
        Row(
            name: "rate count zero", mutate: { $0.rateLimit = .init(count: 0, windowSeconds: 60) },
            pointer: "/rate_limit/count", code: "out_of_range"),
        Row(
            name: "rate window too long", mutate: { $0.rateLimit = .init(count: 1, windowSeconds: 604_801) },
            pointer: "/rate_limit/window_seconds", code: "out_of_range"),
        Row(
            name: "thread template unclosed", mutate: { $0.threadKeyTemplate = "c:{thread_id" },
            pointer: "/thread_key_template", code: "invalid_template"),
        Row(
            name: "apns category too long", mutate: { $0.apnsCategory = String(repeating: "x", count: 65) },
            pointer: "/apns_category", code: "invalid_length"),
        Row(
            name: "default locale malformed", mutate: { $0.defaultLocale = "english" }, pointer: "/default_locale",
            code: "unknown_locale"),
        Row(
            name: "no templates for default locale", mutate: { $0.templates["en"] = nil }, pointer: "/templates",
            code: "missing_default_locale"),
        Row(
            name: "malformed template locale", mutate: { $0.templates["e_n!"] = Fixture.englishTemplates },
            pointer: "/templates/e_n!", code: "unknown_locale"),
        Row(
            name: "app mode needs fallback",
            mutate: {
                $0.deliveryMode = .app
                $0.templates["en"]?.fallbackBody = nil
            }, pointer: "/templates/en/fallback_body", code: "required"),
        Row(
            name: "system mode needs title or body",
            mutate: { $0.templates["pl"] = LocalizedTemplates(digestBody: "x") }, pointer: "/templates/pl/body",
            code: "required"),
        Row(
            name: "template too long", mutate: { $0.templates["en"]?.body = String(repeating: "x", count: 4_001) },
            pointer: "/templates/en/body", code: "invalid_length"),
    ]

    @Test(arguments: rows)
    func reportsTheField(_ row: Row) {
        var category = Fixture.category()
        row.mutate(&category)
        let errors = category.validate()
        #expect(errors.contains { $0.pointer == row.pointer && $0.code == row.code }, "\(errors)")
    }

    @Test func reportsEveryBadFieldAtOnce() {
        var category = Fixture.category()
        category.id = "BAD"
        category.ttlSeconds = -1
        category.collapse = .init(keyTemplate: "}", windowSeconds: 0)
        #expect(
            Set(category.validate().map(\.pointer)) == [
                "/id", "/ttl_seconds", "/collapse/window_seconds", "/collapse/key_template",
            ])
    }

    struct StrictChecker: TemplateSyntaxChecker {
        func problem(in template: String, locale: String) -> TemplateProblem? {
            template.contains("{{") ? TemplateProblem(offset: template.distance(of: "{{"), message: "bad brace") : nil
        }
        func knowsLocale(_ locale: String) -> Bool { ["en", "pl", "pt-BR"].contains(locale) }
    }

    @Test func theCheckerAddsSyntaxErrorsWithOffsetsAndUnknownLocales() {
        var category = Fixture.category()
        category.templates["pl"]?.digestBody = "Od {{first_actor}"
        category.templates["xx-YY"] = Fixture.englishTemplates
        let errors = category.validate(checker: StrictChecker())
        let syntax = errors.first { $0.pointer == "/templates/pl/digest_body" }
        #expect(syntax?.code == "invalid_template" && syntax?.offset == 3)
        #expect(errors.contains { $0.pointer == "/templates/xx-YY" && $0.code == "unknown_locale" })
    }

    @Test func pointersEscapeSlashesAndTildes() {
        #expect(FieldError.token("a/b~c") == "a~1b~0c")
    }
}

extension String {
    fileprivate func distance(of needle: String) -> Int {
        guard let range = range(of: needle) else { return -1 }
        return self.distance(from: startIndex, to: range.lowerBound)
    }
}
