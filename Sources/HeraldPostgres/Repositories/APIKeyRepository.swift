import Foundation

/// An API key as stored: the SHA-256 of its secret, never the secret.
public struct APIKeyRecord: Sendable, Hashable {
    /// Stable identifier used in URLs and logs.
    public var id: String
    /// A human name, e.g. "orders service".
    public var name: String
    /// Scope names such as `events:write`.
    public var scopes: [String]
    /// When the key was created.
    public var createdAt: Date
    /// When the key was revoked, if it was.
    public var revokedAt: Date?

    public init(id: String, name: String, scopes: [String], createdAt: Date, revokedAt: Date?) {
        self.id = id
        self.name = name
        self.scopes = scopes
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

/// The SQL of API keys.
public enum APIKeyRepository {
    static let insert = Query(
        name: "api_keys_insert",
        sql: """
            INSERT INTO api_keys (id, name, key_hash, scopes, created_at)
            VALUES ($1, $2, $3, string_to_array($4, ','), $5)
            RETURNING created_at
            """)
    static let upsertBootstrap = Query(
        name: "api_keys_upsert_bootstrap",
        sql: """
            INSERT INTO api_keys AS k (id, name, key_hash, scopes, created_at) VALUES ($1, $2, $3, ARRAY['admin'], $4)
            ON CONFLICT (id) DO UPDATE SET key_hash = EXCLUDED.key_hash, scopes = EXCLUDED.scopes,
                revoked_at = CASE WHEN k.key_hash = EXCLUDED.key_hash THEN k.revoked_at END
            RETURNING revoked_at IS NOT NULL AS revoked
            """)
    /// Replicas starting together upsert the same bootstrap key; two concurrent inserts of one row would race on
    /// the hash's unique index, which `ON CONFLICT (id)` does not arbitrate, so they take turns.
    static let bootstrapLock = Query(
        name: "api_keys_bootstrap_lock", sql: "SELECT pg_advisory_xact_lock(hashtext('herald_bootstrap_key'))")
    static let byHash = Query(
        name: "api_keys_by_hash",
        sql: """
            SELECT id, name, array_to_string(scopes, ',') AS scopes, created_at, revoked_at
            FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL
            """)
    static let list = Query(
        name: "api_keys_list",
        sql: """
            SELECT id, name, array_to_string(scopes, ',') AS scopes, created_at, revoked_at
            FROM api_keys
            WHERE $1::timestamptz IS NULL OR (created_at, id) < ($1::timestamptz, $2::text)
            ORDER BY created_at DESC, id DESC LIMIT $3::integer
            """)
    static let revoke = Query(
        name: "api_keys_revoke",
        sql: "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1")

    /// Stores a new key, created `now`, and returns its record.
    public static func create(
        id: String, name: String, keyHash: String, scopes: [String], now: Date, on connection: PostgresConnection
    ) throws -> APIKeyRecord {
        let row = try connection.query(insert, [id, name, keyHash, scopes.joined(separator: ","), now]).single()
        return APIKeyRecord(id: id, name: name, scopes: scopes, createdAt: try row.date(0), revokedAt: nil)
    }

    /// Creates or replaces the bootstrap admin key `id` so it matches `keyHash`; returns whether it is revoked.
    ///
    /// A revoked key stays revoked while its value is the same (a restart must not undo a revocation); a new
    /// value is a new key and starts active. A key stored for the first time is created `now`.
    @discardableResult
    public static func upsertAdmin(
        id: String, name: String, keyHash: String, now: Date, on connection: PostgresConnection
    ) throws
        -> Bool
    {
        try connection.transaction { connection in
            _ = try connection.query(bootstrapLock)
            return try connection.query(upsertBootstrap, [id, name, keyHash, now]).single().bool(0)
        }
    }

    /// The active key whose secret hashes to `keyHash`.
    public static func active(keyHash: String, on connection: PostgresConnection) throws -> APIKeyRecord? {
        try connection.query(byHash, [keyHash]).first.map(record)
    }

    /// Up to `limit` keys, newest first (ties by id, descending), after the key `after` names by its creation time
    /// and id.
    public static func page(
        after: (createdAt: Date, id: String)?, limit: Int, on connection: PostgresConnection
    ) throws -> [APIKeyRecord] {
        try connection.query(list, [after?.createdAt, after?.id, limit]).map(record)
    }

    /// Revokes key `id` as of `now` (a key revoked before keeps its time); returns whether it exists.
    public static func revoke(id: String, now: Date, on connection: PostgresConnection) throws -> Bool {
        try connection.execute(revoke, [id, now]) > 0
    }

    private static func record(_ row: PostgresRow) throws -> APIKeyRecord {
        let scopes = try row.string("scopes")
        return APIKeyRecord(
            id: try row.string("id"), name: try row.string("name"),
            scopes: scopes.split(separator: ",").map(String.init), createdAt: try row.date("created_at"),
            revokedAt: try row.isNull("revoked_at") ? nil : try row.date("revoked_at"))
    }
}
