/// Chooses the locale to render in: device locale → user locale → language without region → category default.
public enum LocaleFallback {
    /// The locales to try, in order and without repeats.
    ///
    /// Exact tags come first (device, then user), then each of them without its region (`pt-BR` → `pt`,
    /// `zh-Hant-TW` → `zh-Hant`), then the category's default locale.
    public static func candidates(device: LocaleTag?, user: LocaleTag?, categoryDefault: LocaleTag) -> [LocaleTag] {
        var ordered: [LocaleTag] = []
        func add(_ tag: LocaleTag?) {
            if let tag, !ordered.contains(tag) { ordered.append(tag) }
        }
        add(device)
        add(user)
        add(device?.withoutRegion)
        add(user?.withoutRegion)
        add(categoryDefault)
        return ordered
    }

    /// The first candidate for which `hasTemplate` is true, or nil when none has a template.
    public static func resolve(
        device: LocaleTag?, user: LocaleTag?, categoryDefault: LocaleTag, hasTemplate: (LocaleTag) -> Bool
    ) -> LocaleTag? {
        candidates(device: device, user: user, categoryDefault: categoryDefault).first(where: hasTemplate)
    }

    /// The first candidate among `available` locales, or nil when none is available.
    public static func resolve(
        device: LocaleTag?, user: LocaleTag?, categoryDefault: LocaleTag, available: Set<LocaleTag>
    ) -> LocaleTag? {
        resolve(device: device, user: user, categoryDefault: categoryDefault) { available.contains($0) }
    }
}
