/// How much locale data ICU has for a tag.
public enum LocaleDataSupport: Sendable, Hashable {
    /// ICU has data for the locale itself.
    case exact
    /// ICU only has data for a parent, named by its ICU id (e.g. `pl` for `pl-XX`).
    case fallback(String)
    /// ICU has nothing: it would format with root rules or the process default locale.
    case none
}
