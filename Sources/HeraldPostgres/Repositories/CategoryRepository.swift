import Foundation
import HeraldCore

/// The SQL of categories and their history. Every write stores the new document and its history row in one
/// statement; updates are conditional on the version the writer read, so concurrent edits never lose one another.
public enum CategoryRepository {
    static let insert = Query(
        name: "categories_insert",
        sql: """
            WITH created AS (
                INSERT INTO categories (id, document, created_at, updated_at) VALUES ($1, $2::jsonb, $4, $4)
                ON CONFLICT (id) DO NOTHING
                RETURNING id, version, document, created_at, updated_at, archived_at
            ), logged AS (
                INSERT INTO category_changes (category_id, version, action, actor_key_id, actor_name, changed_at, after)
                SELECT id, version, 'create', $3, (SELECT name FROM api_keys WHERE id = $3), created_at, document
                FROM created
            )
            SELECT id, version, document, created_at, updated_at, archived_at FROM created
            """)
    static let byId = Query(
        name: "categories_by_id",
        sql: """
            SELECT id, version, document, created_at, updated_at, archived_at FROM categories WHERE id = $1
            """)
    static let byIds = Query(
        name: "categories_by_ids",
        sql: """
            SELECT id, version, document, created_at, updated_at, archived_at FROM categories
            WHERE id = ANY (string_to_array($1, ','))
            """)
    /// The current version of each category, and its document only where it differs from the version the caller
    /// holds (`$2`, aligned with `$1`, NULL where it holds none).
    static let byIdsUnlessKnown = Query(
        name: "categories_by_ids_unless_known",
        sql: """
            SELECT c.id, c.version, c.archived_at,
                   CASE WHEN k.version IS DISTINCT FROM c.version THEN c.document END AS document
            FROM categories c
            LEFT JOIN unnest($1::text[], $2::integer[]) AS k(id, version) ON k.id = c.id
            WHERE c.id = ANY ($1::text[])
            """)
    static let page = Query(
        name: "categories_page",
        sql: """
            SELECT id, version, document, created_at, updated_at, archived_at FROM categories
            WHERE ($1::text IS NULL OR id > $1::text)
              AND ($2::boolean IS NULL OR (archived_at IS NOT NULL) = $2::boolean)
            ORDER BY id LIMIT $3::integer
            """)
    /// Locks the row the writer read, so the document recorded as "before" is exactly the one being replaced.
    static let lockVersion = Query(
        name: "categories_lock_version",
        sql: "SELECT document FROM categories WHERE id = $1 AND version = $2::integer FOR UPDATE")
    static let currentVersion = Query(
        name: "categories_current_version", sql: "SELECT version FROM categories WHERE id = $1")
    static let update = Query(
        name: "categories_update",
        sql: """
            WITH changed AS (
                UPDATE categories SET
                    document = $3::jsonb, version = version + 1, updated_at = $8,
                    archived_at = CASE WHEN $4::boolean THEN COALESCE(archived_at, $8) END
                WHERE id = $1 AND version = $2::integer
                RETURNING id, version, document, created_at, updated_at, archived_at
            ), logged AS (
                INSERT INTO category_changes
                    (category_id, version, action, actor_key_id, actor_name, changed_at, before, after)
                SELECT id, version, $5, $6, (SELECT name FROM api_keys WHERE id = $6), updated_at, $7::jsonb, document
                FROM changed
            )
            SELECT id, version, document, created_at, updated_at, archived_at FROM changed
            """)
    static let changes = Query(
        name: "category_changes_page",
        sql: """
            SELECT version, action, actor_key_id, actor_name, changed_at, before, after FROM category_changes
            WHERE category_id = $1 AND version > $2::integer ORDER BY version LIMIT $3::integer
            """)

    /// The document form stored in `categories.document`: the category's own wire form, keys sorted.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Stores a new category (version 1) and its `create` history row, stamped `now`; nil when the id is taken.
    public static func create(
        _ category: Category, actorKeyId: String?, now: Date, on connection: PostgresConnection
    ) throws -> CategoryRecord? {
        var fresh = category
        fresh.archived = false
        let rows = try connection.query(insert, [category.id, try document(fresh), actorKeyId, now])
        return try rows.first.map(record)
    }

    /// The category with `id`, archived or not.
    public static func find(id: String, on connection: PostgresConnection) throws -> CategoryRecord? {
        try connection.query(byId, [id]).first.map(record)
    }

    /// The categories among `ids` that exist, by id, archived ones included (the decider rejects those).
    public static func categories(ids: [String], on connection: PostgresConnection) throws -> [String: Category] {
        let slugs = ids.filter(CategoryRules.isSlug)
        guard !slugs.isEmpty else { return [:] }
        let rows = try connection.query(byIds, [slugs.joined(separator: ",")])
        var found: [String: Category] = [:]
        for row in rows {
            let loaded = try record(row)
            found[loaded.category.id] = loaded.category
        }
        return found
    }

    /// A category's current version, with its contents unless the caller already holds that version.
    public struct Current: Sendable {
        public let version: Int
        /// Nil when the caller's version is current.
        public let category: Category?
    }

    /// The categories among `ids` that exist, by id, archived ones included; `knownVersions` are the versions the
    /// caller holds, whose documents are neither sent nor decoded while they stay current.
    public static func current(
        ids: [String], knownVersions: [String: Int], on connection: PostgresConnection
    ) throws -> [String: Current] {
        guard let query = currentQuery(ids: ids, knownVersions: knownVersions) else { return [:] }
        return try current(from: connection.query(query.query, query.parameters))
    }

    /// The statement of `current`, to send in a pipeline with others; nil when no id can be a category's.
    public static func currentQuery(ids: [String], knownVersions: [String: Int]) -> BoundQuery? {
        let slugs = Array(Set(ids.filter(CategoryRules.isSlug)))
        guard !slugs.isEmpty else { return nil }
        let versions = PipelineArray(optional: slugs.map { knownVersions[$0].map(String.init) })
        return BoundQuery(byIdsUnlessKnown, [PipelineArray(slugs), versions])
    }

    /// The categories of `currentQuery`'s result, by id.
    public static func current(from rows: PostgresResult) throws -> [String: Current] {
        var found: [String: Current] = [:]
        for row in rows {
            let category = try row.isNull("document") ? nil : try decode(row)
            found[try row.string("id")] = Current(version: try row.int("version"), category: category)
        }
        return found
    }

    /// Up to `limit` categories ordered by id, after the id `cursor`; `archived` filters when given.
    public static func page(
        after cursor: String?, limit: Int, archived: Bool?, on connection: PostgresConnection
    ) throws -> [CategoryRecord] {
        try connection.query(page, [cursor, archived, limit]).map(record)
    }

    /// Replaces the category with `category` if it is still at `expectedVersion`, recording who did it and the
    /// documents before and after and the time (`now`), all in one transaction.
    public static func update(
        id: String, expectedVersion: Int, to category: Category, action: CategoryChange.Action,
        actorKeyId: String?, now: Date, on connection: PostgresConnection
    ) throws -> CategoryUpdate {
        try connection.transaction { connection in
            guard let locked = try connection.query(lockVersion, [id, expectedVersion]).first else {
                let current = try connection.query(currentVersion, [id]).first
                return try current.map { .stale(currentVersion: try $0.int(0)) } ?? .notFound
            }
            let before = try locked.json(0)
            let parameters: [(any PostgresEncodable)?] = [
                id, expectedVersion, try document(category), category.archived, action.rawValue, actorKeyId,
                JSONText(before), now,
            ]
            guard let row = try connection.query(update, parameters).first else {
                // Unreachable while the row lock is held; report it as a lost race rather than trusting that.
                return .stale(currentVersion: expectedVersion)
            }
            return .updated(try record(row))
        }
    }

    /// Up to `limit` history entries of category `id` with versions after `afterVersion`, oldest first.
    public static func changes(
        id: String, afterVersion: Int, limit: Int, on connection: PostgresConnection
    ) throws -> [CategoryChange] {
        try connection.query(changes, [id, afterVersion, limit]).map { row in
            guard let action = CategoryChange.Action(rawValue: try row.string("action")) else {
                throw PostgresError(kind: .decoding, message: "unknown category change action")
            }
            return CategoryChange(
                version: try row.int("version"), action: action,
                actorKeyId: try row.text("actor_key_id"), actorName: try row.text("actor_name"),
                changedAt: try row.date("changed_at"), before: try row.text("before"), after: try row.json("after"))
        }
    }

    static func document(_ category: Category) throws -> JSONText {
        JSONText(String(decoding: try encoder.encode(category), as: UTF8.self))
    }

    private static func record(_ row: PostgresRow) throws -> CategoryRecord {
        let archivedAt = try row.isNull("archived_at") ? nil : try row.date("archived_at")
        return CategoryRecord(
            category: try decode(row), version: try row.int("version"), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"), archivedAt: archivedAt)
    }

    /// The row's `document` as a category, archived when its `archived_at` is set.
    private static func decode(_ row: PostgresRow) throws -> Category {
        let text = try row.json("document")
        var category: Category
        do {
            category = try JSONDecoder().decode(Category.self, from: Data(text.utf8))
        } catch {
            throw PostgresError(kind: .decoding, message: "stored category document does not decode")
        }
        category.archived = !(try row.isNull("archived_at"))
        return category
    }
}
