import HeraldText
import Testing

@Suite("Locale fallback")
struct LocaleFallbackTests {
    func tag(_ text: String) throws -> LocaleTag { try LocaleTag(text) }

    @Test func candidatesFollowDeviceUserLanguageDefault() throws {
        let candidates = LocaleFallback.candidates(
            device: try tag("pt-BR"), user: try tag("en-US"), categoryDefault: try tag("de"))
        #expect(candidates.map(\.identifier) == ["pt-BR", "en-US", "pt", "en", "de"])
    }

    @Test func candidatesHaveNoRepeats() throws {
        let candidates = LocaleFallback.candidates(
            device: try tag("en-US"), user: try tag("en_US"), categoryDefault: try tag("en"))
        #expect(candidates.map(\.identifier) == ["en-US", "en"])
        let defaultOnly = LocaleFallback.candidates(device: nil, user: nil, categoryDefault: try tag("fr"))
        #expect(defaultOnly.map(\.identifier) == ["fr"])
    }

    static let resolutions: [(String?, String?, String, [String], String?)] = [
        ("pt-BR", "en-US", "en", ["pt-BR", "en"], "pt-BR"),
        ("pt-BR", "en-US", "en", ["pt", "en"], "pt"),
        ("pt-BR", "en-US", "en", ["pt", "en-US", "en"], "en-US"),
        ("pt-BR", nil, "en", ["fr", "en"], "en"),
        (nil, "pl-PL", "en", ["pl", "en"], "pl"),
        ("zh-Hant-TW", nil, "en", ["zh-Hant", "zh", "en"], "zh-Hant"),
        ("sr-Latn-RS", nil, "en", ["sr", "en"], "en"),
        ("de-CH", "fr", "en", ["es"], nil),
    ]

    @Test("first locale with a template", arguments: resolutions)
    func resolve(
        device: String?, user: String?, categoryDefault: String, available: [String], expected: String?
    )
        throws
    {
        let resolved = LocaleFallback.resolve(
            device: try device.map(tag), user: try user.map(tag), categoryDefault: try tag(categoryDefault),
            available: Set(try available.map(tag)))
        #expect(resolved?.identifier == expected)
    }

    @Test func resolveAsksAboutCandidatesInOrder() throws {
        var asked: [String] = []
        let resolved = LocaleFallback.resolve(device: try tag("pl-PL"), user: nil, categoryDefault: try tag("en")) {
            asked.append($0.identifier)
            return $0.identifier == "en"
        }
        #expect(resolved?.identifier == "en")
        #expect(asked == ["pl-PL", "pl", "en"])
    }
}
