/// The preference that actually applies to a user and category, and where it came from.
public struct EffectivePreference: Sendable, Hashable, Codable {
    /// Where an effective preference came from.
    public enum Source: String, Sendable, Hashable, Codable, CaseIterable {
        case user
        case categoryDefault = "category default"
        case required
    }

    public var setting: PreferenceSetting
    public var source: Source

    /// Creates an effective preference.
    public init(setting: PreferenceSetting, source: Source) {
        self.setting = setting
        self.source = source
    }

    /// Resolves the preference: a required category is always on; else the user's own choice; else the default.
    public static func resolve(
        category: Category, userSetting: PreferenceSetting?
    )
        -> EffectivePreference
    {
        if category.required {
            return EffectivePreference(setting: .on, source: .required)
        }
        if let userSetting {
            return EffectivePreference(setting: userSetting, source: .user)
        }
        return EffectivePreference(setting: category.defaultPreference, source: .categoryDefault)
    }
}

extension Category {
    /// The two terms the preference rules read of a stored category, from the text of its document's
    /// `default_preference` and `required` members (nil when the document leaves one out): each member left out, or
    /// holding nothing the rules know, takes the default a new category gets.
    public static func preferenceTerms(
        defaultPreference: String?, required: String?
    ) -> (defaultPreference: PreferenceSetting, required: Bool) {
        let defaults = Category(id: "", name: "")
        return (
            defaultPreference.flatMap(PreferenceSetting.init(rawValue:)) ?? defaults.defaultPreference,
            required.flatMap(Bool.init) ?? defaults.required
        )
    }
}
