import Foundation
import HeraldText
import Testing

@Suite("Locale tags")
struct LocaleTagTests {
    static let canonical: [(String, String)] = [
        ("pl-PL", "pl-PL"), ("pl_PL", "pl-PL"), ("pl-pl", "pl-PL"), ("zh-Hant-TW", "zh-Hant-TW"),
        ("ZH-hant-tw", "zh-Hant-TW"), ("sr-Latn", "sr-Latn"), ("sr-latn-rs", "sr-Latn-RS"), ("iw", "he"),
        ("sh", "sr-Latn"), ("es-419", "es-419"), ("EN", "en"), ("ja-JP-u-ca-japanese", "ja-JP-u-ca-japanese"),
    ]

    @Test("canonicalization", arguments: canonical)
    func canonicalization(input: String, expected: String) throws {
        #expect(try LocaleTag(input).identifier == expected)
    }

    @Test(
        "malformed tags", arguments: ["en-", "en--US", "e", "und", "x-private", "toolonglanguage", "pl PL", "pl-PL!"])
    func malformed(input: String) {
        let error = #expect(throws: LocaleTagError.self) { try LocaleTag(input) }
        #expect(error?.code == .malformed)
    }

    @Test func emptyAndOverlongTags() {
        let empty = #expect(throws: LocaleTagError.self) { try LocaleTag("") }
        #expect(empty?.code == .empty)
        let long = #expect(throws: LocaleTagError.self) {
            try LocaleTag("en-" + String(repeating: "abcdefgh-", count: 20))
        }
        #expect(long?.code == .tooLong)
    }

    static let data: [(String, LocaleDataSupport)] = [
        ("pl-PL", .exact), ("zh-Hant-TW", .exact), ("sr-Latn", .exact), ("ar", .exact), ("pt-BR", .exact),
        ("pl-XX", .fallback("pl")), ("en-AQ", .fallback("en")), ("xx", .none), ("tlh", .none),
    ]

    @Test("ICU data availability", arguments: data)
    func icuData(tag: String, expected: LocaleDataSupport) throws {
        let locale = try LocaleTag(tag)
        #expect(locale.icuData == expected)
        #expect(locale.hasICUData == (expected != .none))
    }

    static let parts: [(String, String, String?, String?, String?)] = [
        ("pt-BR", "pt", nil, "BR", "pt"), ("zh-Hant-TW", "zh", "Hant", "TW", "zh-Hant"),
        ("sr-Latn", "sr", "Latn", nil, nil), ("es-419", "es", nil, "419", "es"), ("en", "en", nil, nil, nil),
        ("en-US-u-va-posix", "en", nil, "US", "en"),
    ]

    @Test("subtags and the tag without region", arguments: parts)
    func subtags(tag: String, language: String, script: String?, region: String?, withoutRegion: String?) throws {
        let locale = try LocaleTag(tag)
        #expect(locale.language == language)
        #expect(locale.script == script)
        #expect(locale.region == region)
        #expect(locale.withoutRegion?.identifier == withoutRegion)
    }

    @Test func codableCanonicalizesAndValidates() throws {
        let decoded = try JSONDecoder().decode([LocaleTag].self, from: Data(#"["pl_PL","ZH-hant-tw"]"#.utf8))
        #expect(decoded.map(\.identifier) == ["pl-PL", "zh-Hant-TW"])
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self) == #"["pl-PL","zh-Hant-TW"]"#)
        #expect(throws: LocaleTagError.self) { try JSONDecoder().decode(LocaleTag.self, from: Data(#""en-""#.utf8)) }
    }

    @Test func equalTagsNameTheSameLocale() throws {
        #expect(try LocaleTag("zh-hant-tw") == LocaleTag("ZH_Hant_TW"))
        #expect(try LocaleTag("iw") == LocaleTag("he"))
    }
}
