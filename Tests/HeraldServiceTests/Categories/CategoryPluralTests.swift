import Foundation
import HeraldCore
import HeraldText
import Testing

/// CLDR cardinal rules written out by hand for the locales under test, from a number's decimal operands, to check
/// ICU's selection through the renderer the pipeline uses.
enum ReferencePlural {
    /// `n`, `i` (integer digits), `v` (visible fraction digits) of a number as shown.
    struct Operands {
        var n: Double
        var i: Int
        var v: Int

        init(_ number: Double) {
            n = abs(number)
            i = Int(n.rounded(.towardZero))
            // The numbers under test have at most one fraction digit.
            v = n == n.rounded(.towardZero) ? 0 : 1
        }
    }

    static func category(_ locale: String, _ number: Double) -> String {
        let o = Operands(number)
        let i10 = o.i % 10
        let i100 = o.i % 100
        switch locale {
        case "en":
            return o.i == 1 && o.v == 0 ? "one" : "other"
        case "fr":
            return o.i == 0 || o.i == 1 ? "one" : "other"
        case "ru":
            guard o.v == 0 else { return "other" }
            if i10 == 1 && i100 != 11 { return "one" }
            if (2...4).contains(i10) && !(12...14).contains(i100) { return "few" }
            return "many"
        case "pl":
            guard o.v == 0 else { return "other" }
            if o.i == 1 { return "one" }
            if (2...4).contains(i10) && !(12...14).contains(i100) { return "few" }
            return "many"
        case "ar":
            guard o.v == 0 else { return "other" }
            switch o.i {
            case 0: return "zero"
            case 1: return "one"
            case 2: return "two"
            default: break
            }
            if (3...10).contains(i100) { return "few" }
            if (11...99).contains(i100) { return "many" }
            return "other"
        case "cy":
            guard o.v == 0 else { return "other" }
            return [0: "zero", 1: "one", 2: "two", 3: "few", 6: "many"][o.i] ?? "other"
        default:
            return "other"
        }
    }
}

@Suite("Categories: plural and number output through the ICU renderer")
struct CategoryPluralTests {
    static let renderer = ICUMessageRenderer()
    static let allForms =
        "{n, plural, zero {zero} one {one} two {two} few {few} many {many} other {other}}"

    static func render(_ template: String, _ locale: String, _ arguments: [String: TemplateValue]) throws -> String {
        try renderer.render(template: template, locale: locale, zone: "UTC", arguments: arguments)
    }

    @Test(
        "Whole numbers 0–120 pick CLDR's form",
        arguments: ["en", "fr", "ru", "pl", "ar", "ja", "cy"])
    func wholeNumbers(locale: String) throws {
        for number in 0...120 {
            let text = try Self.render(Self.allForms, locale, ["n": .int(number)])
            #expect(text == ReferencePlural.category(locale, Double(number)), "\(locale) \(number)")
        }
    }

    @Test(
        "Fractions pick CLDR's form",
        arguments: ["en", "fr", "ru", "pl", "ar", "ja", "cy"])
    func fractions(locale: String) throws {
        for number in [0.5, 1.5, 2.5, 3.7, 6.5, 11.2, 21.5, 101.5, 0.1] {
            let text = try Self.render(Self.allForms, locale, ["n": .double(number)])
            #expect(text == ReferencePlural.category(locale, number), "\(locale) \(number)")
        }
    }

    @Test(
        "`#` is the number formatted for the locale",
        arguments: [
            ("en", 1_234, "1,234 messages"), ("fr", 1_234, "1\u{202F}234 messages"),
            ("pl", 22, "22 messages"), ("ru", 1_000, "1\u{00A0}000 messages"), ("ja", 5, "5 messages"),
        ] as [(String, Int, String)])
    func hashFormatting(locale: String, number: Int, expected: String) throws {
        let text = try Self.render("{n, plural, one {# message} other {# messages}}", locale, ["n": .int(number)])
        #expect(text == expected)
    }

    @Test("Decimal separators follow the locale")
    func decimals() throws {
        #expect(try Self.render("{n, plural, other {#}}", "en", ["n": .double(1.5)]) == "1.5")
        #expect(try Self.render("{n, plural, other {#}}", "fr", ["n": .double(1.5)]) == "1,5")
        #expect(try Self.render("{n, plural, other {#}}", "pl", ["n": .double(2.5)]) == "2,5")
    }

    @Test("Exact matches, offset, select and selectordinal")
    func otherArgumentKinds() throws {
        let invite =
            "{n, plural, offset:1 =0 {nobody came} =1 {{host} came} one {{host} and # other came}"
            + " other {{host} and # others came}}"
        let results = try [0, 1, 2, 5].map { try Self.render(invite, "en", ["n": .int($0), "host": .string("Asha")]) }
        #expect(results == ["nobody came", "Asha came", "Asha and 1 other came", "Asha and 4 others came"])
        let place = "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}"
        let places = try [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map {
            try Self.render(place, "en", ["n": .int($0)])
        }
        #expect(
            places == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"])
        let gender = "{g, select, female {her} male {his} other {their}}"
        #expect(try Self.render(gender, "en", ["g": .string("female")]) == "her")
        #expect(try Self.render(gender, "en", ["g": .string("robot")]) == "their")
    }

    @Test("Dates and times are shown in the recipient's zone")
    func zones() throws {
        let instant = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        let template = "{d, time, ::HHmm}"
        let tokyo = try Self.renderer.render(
            template: template, locale: "en", zone: "Asia/Tokyo", arguments: ["d": .date(instant)])
        let newYork = try Self.renderer.render(
            template: template, locale: "en", zone: "America/New_York", arguments: ["d": .date(instant)])
        #expect(tokyo == "09:00")
        #expect(newYork == "19:00")
        let unknownZone = try Self.renderer.render(
            template: template, locale: "en", zone: "Mars/Olympus", arguments: ["d": .date(instant)])
        #expect(unknownZone == "00:00")
    }

    @Test("Missing arguments stay visible and are listed")
    func missingArguments() throws {
        let rendered = try Self.renderer.renderMessage(
            template: "{sender}: {n, plural, one {# file} other {# files}}", locale: "en", zone: "UTC",
            arguments: ["n": .int(2)])
        #expect(rendered.text.contains("{sender}"))
        #expect(rendered.text.contains("2 files"))
        #expect(rendered.missingArguments == ["sender"])
    }

    @Test("The checker knows ICU's locales and refuses made-up ones")
    func knownLocales() {
        for locale in ["en", "pl-PL", "pt-BR", "zh-Hant-TW", "sr-Latn", "cy", "ar-EG", "ja"] {
            #expect(Self.renderer.knowsLocale(locale), "\(locale)")
        }
        for locale in ["xx", "qq-PL", "", "en_", "toolonglanguage"] {
            #expect(!Self.renderer.knowsLocale(locale), "\(locale)")
        }
    }
}
