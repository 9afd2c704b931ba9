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
    /// there is no region. A script is kept, because `sr-Latn` text is not `sr` (Cyrillic) text.
    public static func language(of locale: String) -> String? {
        let parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard parts.count > 1 else { return nil }
        var kept = [parts[0]]
        if parts[1].count == 4, parts[1].allSatisfy(\.isLetter) { kept.append(parts[1]) }
        let rest = parts.dropFirst(kept.count)
        guard let region = rest.first,
            (region.count == 2 && region.allSatisfy(\.isLetter)) || (region.count == 3 && region.allSatisfy(\.isNumber))
        else { return nil }
        return kept.joined(separator: "-")
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
