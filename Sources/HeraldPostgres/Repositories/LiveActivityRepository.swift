import Foundation
import HeraldCore

/// The SQL of Live Activity push tokens: one per installation and activity id, registered, listed and removed.
public enum LiveActivityRepository {
    /// One registered token.
    public struct Registration: Sendable, Hashable {
        public var installationId: String
        public var activityId: String
        public var token: String
        public var registeredAt: Date

        /// Creates a registration.
        public init(installationId: String, activityId: String, token: String, registeredAt: Date) {
            self.installationId = installationId
            self.activityId = activityId
            self.token = token
            self.registeredAt = registeredAt
        }
    }

    // The device row is locked so two registrations on one device count each other.
    static let lockDevice = Query(
        name: "live_activity_lock_device",
        sql: "SELECT 1 FROM devices WHERE installation_id = $1 AND ($2::text IS NULL OR user_id = $2) FOR UPDATE")
    static let list = Query(
        name: "live_activity_list",
        sql: """
            SELECT installation_id, activity_id, token, registered_at FROM live_activity_tokens
            WHERE installation_id = $1 ORDER BY activity_id
            """)
    static let upsert = Query(
        name: "live_activity_upsert",
        sql: """
            INSERT INTO live_activity_tokens (installation_id, activity_id, token, registered_at)
            VALUES ($1, $2, $3, $4)
            ON CONFLICT ON CONSTRAINT live_activity_tokens_pkey
            DO UPDATE SET token = EXCLUDED.token, registered_at = EXCLUDED.registered_at
            RETURNING (xmax = 0) AS created
            """)
    static let remove = Query(
        name: "live_activity_remove",
        sql: """
            DELETE FROM live_activity_tokens t USING devices d
            WHERE t.installation_id = $1 AND t.activity_id = $2 AND d.installation_id = t.installation_id
              AND ($3::text IS NULL OR d.user_id = $3)
            RETURNING 1
            """)

    /// The tokens of installation `installationId`, by activity id.
    public static func registrations(
        installationId: String, on connection: PostgresConnection
    ) throws -> [Registration] {
        try connection.query(list, [installationId]).map(registration)
    }

    /// Registers `token` for `activityId` on `installationId` at `now`, after `check` (given the activity ids the
    /// device holds, under its lock) accepts it and returns the token to store; nil when the device does not exist,
    /// or (with `ownerId`) is not that user's when its lock is held. Returns whether the activity was new.
    public static func register<Refusal: Error>(
        installationId: String, activityId: String, ownerId: String?, now: Date, on connection: PostgresConnection,
        check: (Set<String>) -> Result<String, Refusal>
    ) throws -> Bool? {
        try connection.transaction { connection in
            guard !(try connection.query(lockDevice, [installationId, ownerId]).isEmpty) else { return nil }
            let held = Set(try connection.query(list, [installationId]).map { try $0.string("activity_id") })
            let token = try check(held).get()
            return try connection.query(upsert, [installationId, activityId, token, now]).single().bool("created")
        }
    }

    /// Removes the token of `activityId` on `installationId` (with `ownerId`, only while the device is that
    /// user's); returns whether there was one.
    public static func remove(
        installationId: String, activityId: String, ownerId: String?, on connection: PostgresConnection
    ) throws -> Bool {
        !(try connection.query(remove, [installationId, activityId, ownerId]).isEmpty)
    }

    private static func registration(_ row: PostgresRow) throws -> Registration {
        Registration(
            installationId: try row.string("installation_id"), activityId: try row.string("activity_id"),
            token: try row.string("token"), registeredAt: try row.date("registered_at"))
    }
}
