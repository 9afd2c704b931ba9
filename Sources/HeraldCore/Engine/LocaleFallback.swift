/// The order in which locales are tried for a device: device locale, user locale, each one's language without
/// region, then the category's default locale.
public enum LocaleFallback {
    /// The distinct candidate locales, most specific first.
    public static func chain(
        deviceLocale: String?, userLocale: String?, defaultLocale: String
    )
        -> [String]
    {
        var chain: [String] = []
        func add(_ locale: String?) {
            guard let locale, !locale.isEmpty, !chain.contains(locale) else { return }
            chain.append(locale)
        }
        add(deviceLocale)
        add(userLocale)
        add(deviceLocale.flatMap(language(of:)))
        add(userLocale.flatMap(language(of:)))
        add(defaultLocale)
        return chain
    }

    /// The tag without its region: `pt` for `pt-BR`, `zh-Hant` for `zh-Hant-TW` (underscores accepted); `nil` when
    /// there is no region. A script is kept, because `sr-Latn` text is not `sr` (Cyrillic) text. As in BCP 47, a
    /// script is four ASCII letters and a region two ASCII letters or three ASCII digits; the tag is read byte by
    /// byte (two renders per recipient ask), and no string is made but the answer.
    public static func language(of locale: String) -> String? {
        var tag = locale
        return tag.withUTF8 { language(of: $0) }
    }

    private static func language(of tag: UnsafeBufferPointer<UInt8>) -> String? {
        var parts: (Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0)
        var found = 0
        var start = 0
        for index in 0...tag.count {
            if index < tag.count, tag[index] != UInt8(ascii: "-"), tag[index] != UInt8(ascii: "_") { continue }
            if index > start {
                switch found {
                case 0: parts.0 = start..<index
                case 1: parts.1 = start..<index
                case 2: parts.2 = start..<index
                default: break
                }
                found += 1
            }
            start = index + 1
        }
        func all(_ range: Range<Int>, _ test: (UInt8) -> Bool) -> Bool { range.allSatisfy { test(tag[$0]) } }
        let letter = { (byte: UInt8) in (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        let digit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let script = found > 1 && parts.1.count == 4 && all(parts.1, letter)
        guard found > (script ? 2 : 1) else { return nil }
        let region = script ? parts.2 : parts.1
        guard (region.count == 2 && all(region, letter)) || (region.count == 3 && all(region, digit)) else {
            return nil
        }
        var kept = Array(tag[parts.0])
        if script {
            kept.append(UInt8(ascii: "-"))
            kept.append(contentsOf: tag[parts.1])
        }
        return String(decoding: kept, as: UTF8.self)
    }

    /// The first locale of `chain` the category has templates for, with those templates.
    public static func resolve(
        _ chain: [String], in templates: [String: LocalizedTemplates]
    ) -> (
        locale: String, templates: LocalizedTemplates
    )? {
        for locale in chain {
            if let found = templates[locale] { return (locale, found) }
            // Tags are case-insensitive in BCP 47; stored keys may differ in case from a device's report.
            if let match = templates.first(where: {
                $0.key.caseInsensitiveCompare(locale) == .orderedSame
            }) {
                return (match.key, match.value)
            }
        }
        return nil
    }
}
