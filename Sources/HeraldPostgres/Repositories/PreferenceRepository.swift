import Foundation
import HeraldCore

/// A category as the preference rules see it: its default and whether it ignores opt-out.
public struct PreferenceCategory: Sendable, Hashable {
    /// The category id.
    public var id: String
    /// The setting users who chose nothing get.
    public var defaultPreference: PreferenceSetting
    /// Whether opt-out is ignored (security codes and the like).
    public var required: Bool
    /// Whether the category is archived.
    public var archived: Bool

    /// Creates a view of a category.
    public init(id: String, defaultPreference: PreferenceSetting, required: Bool, archived: Bool = false) {
        self.id = id
        self.defaultPreference = defaultPreference
        self.required = required
        self.archived = archived
    }

    /// The effective preference for a user whose own choice is `userSetting`.
    public func effective(userSetting: PreferenceSetting?) -> EffectivePreference {
        EffectivePreference.resolve(
            category: Category(id: id, name: id, defaultPreference: defaultPreference, required: required),
            userSetting: userSetting)
    }
}

/// The SQL of per-user category preferences. Categories are read from their JSON document (`default_preference`,
/// `required`) as stored; what a member left out means is `Category.preferenceTerms`.
public enum PreferenceRepository {
    static let categoryQuery = Query(
        name: "preferences_category",
        sql: """
            SELECT id, document->>'default_preference' AS default_preference, document->>'required' AS required,
                   archived_at IS NOT NULL AS archived
            FROM categories WHERE id = $1
            """)
    static let effectiveQuery = Query(
        name: "preferences_effective",
        sql: """
            SELECT c.id, c.document->>'default_preference' AS default_preference,
                   c.document->>'required' AS required, false AS archived, p.setting
            FROM categories c
            LEFT JOIN user_preferences p ON p.category_id = c.id AND p.user_id = $1
            WHERE c.archived_at IS NULL
            ORDER BY c.id
            """)
    static let setQuery = Query(
        name: "preferences_set",
        sql: """
            INSERT INTO user_preferences (user_id, category_id, setting, updated_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (user_id, category_id) DO UPDATE SET
                setting = EXCLUDED.setting, updated_at = EXCLUDED.updated_at
            """)
    static let resetQuery = Query(
        name: "preferences_reset", sql: "DELETE FROM user_preferences WHERE user_id = $1 AND category_id = $2")
    static let batchQuery = Query(
        name: "preferences_batch",
        sql: """
            SELECT user_id, setting FROM user_preferences WHERE user_id = ANY($1::text[]) AND category_id = $2
            """)

    /// Category `id` as the preference rules see it, if it exists (archived or not).
    public static func category(id: String, on connection: PostgresConnection) throws -> PreferenceCategory? {
        try connection.query(categoryQuery, [id]).first.map(category)
    }

    /// Every non-archived category, ordered by id, with user `userId`'s own setting where there is one.
    public static func settings(
        userId: String, on connection: PostgresConnection
    ) throws
        -> [(category: PreferenceCategory, userSetting: PreferenceSetting?)]
    {
        try connection.query(effectiveQuery, [userId]).map { row in
            (try category(row), try row.decode(String?.self, "setting").flatMap(PreferenceSetting.init(rawValue:)))
        }
    }

    /// Stores user `userId`'s choice for category `categoryId`.
    public static func set(
        userId: String, categoryId: String, setting: PreferenceSetting, now: Date, on connection: PostgresConnection
    ) throws {
        try connection.execute(setQuery, [userId, categoryId, setting.rawValue, now])
    }

    /// Forgets user `userId`'s choice for category `categoryId`, so the category default applies again.
    public static func reset(userId: String, categoryId: String, on connection: PostgresConnection) throws {
        try connection.execute(resetQuery, [userId, categoryId])
    }

    /// The own settings for category `categoryId` of the users among `userIds` that made a choice, in one statement.
    public static func settings(
        userIds: [String], categoryId: String, on connection: PostgresConnection
    ) throws -> [String: PreferenceSetting] {
        guard !userIds.isEmpty else { return [:] }
        var settings: [String: PreferenceSetting] = [:]
        for row in try connection.query(batchQuery, [PipelineArray(userIds), categoryId]) {
            settings[try row.string("user_id")] = PreferenceSetting(rawValue: try row.string("setting"))
        }
        return settings
    }

    static func category(_ row: PostgresRow) throws -> PreferenceCategory {
        let terms = Category.preferenceTerms(
            defaultPreference: try row.decode(String?.self, "default_preference"),
            required: try row.decode(String?.self, "required"))
        return PreferenceCategory(
            id: try row.string("id"), defaultPreference: terms.defaultPreference, required: terms.required,
            archived: try row.bool("archived"))
    }
}
