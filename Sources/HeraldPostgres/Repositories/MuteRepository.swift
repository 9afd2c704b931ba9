import Foundation
import HeraldCore

/// A mute as stored, with when it was created.
public struct MuteRecord: Sendable, Hashable {
    /// The mute.
    public var mute: Mute
    /// When it was first created.
    public var createdAt: Date

    /// Creates a record.
    public init(mute: Mute, createdAt: Date) {
        self.mute = mute
        self.createdAt = createdAt
    }
}

/// The SQL of mutes. Expired mutes are never returned: every read takes `now` and filters on it, so a mute stops
/// applying at its end without any sweeper.
public enum MuteRepository {
    static let upsertQuery = Query(
        name: "mutes_upsert",
        sql: """
            INSERT INTO user_mutes (user_id, scope, key, until, created_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (user_id, scope, (COALESCE(key, ''))) DO UPDATE SET
                until = EXCLUDED.until,
                created_at = CASE WHEN user_mutes.until <= EXCLUDED.created_at THEN EXCLUDED.created_at
                                  ELSE user_mutes.created_at END
            RETURNING id, scope, key, until, created_at, (xmax = 0) AS created
            """)
    static let othersRunningQuery = Query(
        name: "mutes_others_running",
        sql: """
            SELECT count(*) FROM user_mutes
            WHERE user_id = $1 AND (until IS NULL OR until > $4) AND NOT (scope = $2 AND COALESCE(key, '') = $3)
            """)
    static let deleteEndedQuery = Query(
        name: "mutes_delete_ended",
        sql: """
            DELETE FROM user_mutes
            WHERE user_id = $1 AND until <= $2 AND NOT (scope = $3 AND COALESCE(key, '') = $4)
            """)
    static let activeQuery = Query(
        name: "mutes_active",
        sql: """
            SELECT id, scope, key, until, created_at FROM user_mutes
            WHERE user_id = $1 AND (until IS NULL OR until > $2) ORDER BY created_at, id
            """)
    static let deleteQuery = Query(
        name: "mutes_delete", sql: "DELETE FROM user_mutes WHERE user_id = $1 AND id = $2::uuid")
    static let activeBatchQuery = Query(
        name: "mutes_active_batch",
        sql: """
            SELECT user_id, id, scope, key, until, created_at FROM user_mutes
            WHERE user_id = ANY($1::text[]) AND (until IS NULL OR until > $2)
            """)

    /// Creates the mute, or moves the end of the user's existing mute of the same thing; returns it and whether it
    /// is new.
    public static func upsert(
        userId: String, _ request: MuteRequest, now: Date, on connection: PostgresConnection
    ) throws -> (record: MuteRecord, created: Bool) {
        let row = try connection.query(
            upsertQuery, [userId, request.scope.rawValue, request.key, request.until, now]
        ).single()
        return (try record(row), try row.bool("created"))
    }

    /// How many mutes of user `userId` run at `now` besides the one `request` would create or replace.
    public static func othersRunning(
        userId: String, besides request: MuteRequest, now: Date, on connection: PostgresConnection
    ) throws -> Int {
        try connection.query(othersRunningQuery, [userId, request.scope.rawValue, request.key ?? "", now]).single()
            .int(0)
    }

    /// Removes user `userId`'s mutes that ended by `now`, except the one `request` renews (it keeps its id):
    /// nothing reads them again, and every decision for the user would still load them.
    public static func deleteEnded(
        userId: String, besides request: MuteRequest, now: Date, on connection: PostgresConnection
    ) throws {
        try connection.execute(deleteEndedQuery, [userId, now, request.scope.rawValue, request.key ?? ""])
    }

    /// User `userId`'s mutes that still apply at `now`, oldest first.
    public static func active(userId: String, now: Date, on connection: PostgresConnection) throws -> [MuteRecord] {
        try connection.query(activeQuery, [userId, now]).map(record)
    }

    /// Removes mute `muteId` (a UUID) of user `userId`; returns whether it existed.
    public static func delete(userId: String, muteId: UUID, on connection: PostgresConnection) throws -> Bool {
        try connection.execute(deleteQuery, [userId, muteId]) > 0
    }

    /// The mutes applying at `now` of the users among `userIds`, keyed by user id, in one statement.
    public static func active(
        userIds: [String], now: Date, on connection: PostgresConnection
    ) throws -> [String: [Mute]] {
        guard !userIds.isEmpty else { return [:] }
        var mutes: [String: [Mute]] = [:]
        for row in try connection.query(activeBatchQuery, [PipelineArray(userIds), now]) {
            mutes[try row.string("user_id"), default: []].append(try record(row).mute)
        }
        return mutes
    }

    static func record(_ row: PostgresRow) throws -> MuteRecord {
        guard let scope = Mute.Scope(rawValue: try row.string("scope")) else {
            throw PostgresError(kind: .decoding, message: "unknown mute scope")
        }
        let mute = Mute(
            id: try row.string("id"), scope: scope, key: try row.decode(String?.self, "key"),
            until: try row.decode(Date?.self, "until"))
        return MuteRecord(mute: mute, createdAt: try row.date("created_at"))
    }
}
