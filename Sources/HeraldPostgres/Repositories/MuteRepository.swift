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

/// The SQL of mutes. Reads return every stored mute of a user, ended ones too: whether a mute still runs is
/// `Mute.isRunning(at:)`, so a mute stops applying at its end without any sweeper, and ended ones go when the user
/// next stores a mute (`MuteAdmission`).
public enum MuteRepository {
    static let upsertQuery = Query(
        name: "mutes_upsert",
        sql: """
            INSERT INTO user_mutes (user_id, scope, key, until, created_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (user_id, scope, (COALESCE(key, ''))) DO UPDATE SET
                until = EXCLUDED.until, created_at = EXCLUDED.created_at
            RETURNING id, scope, key, until, created_at, (xmax = 0) AS created
            """)
    static let deleteSomeQuery = Query(
        name: "mutes_delete_some", sql: "DELETE FROM user_mutes WHERE user_id = $1 AND id = ANY($2::uuid[])")
    static let storedQuery = Query(
        name: "mutes_stored",
        sql: "SELECT id, scope, key, until, created_at FROM user_mutes WHERE user_id = $1 ORDER BY created_at, id")
    static let deleteQuery = Query(
        name: "mutes_delete", sql: "DELETE FROM user_mutes WHERE user_id = $1 AND id = $2::uuid")
    static let storedBatchQuery = Query(
        name: "mutes_stored_batch",
        sql: "SELECT user_id, id, scope, key, until, created_at FROM user_mutes WHERE user_id = ANY($1::text[])")

    /// Stores `request` for user `userId` as `admission` decided it: the mutes it found ended go, then the mute is
    /// created, or the existing one of the same thing gets the new end. Returns it and whether it is new.
    public static func store(
        userId: String, _ request: MuteRequest, _ admission: MuteAdmission, on connection: PostgresConnection
    ) throws -> (record: MuteRecord, created: Bool) {
        if !admission.ended.isEmpty {
            try connection.execute(deleteSomeQuery, [userId, PipelineArray(admission.ended)])
        }
        let row = try connection.query(
            upsertQuery, [userId, request.scope.rawValue, request.key, request.until, admission.createdAt]
        ).single()
        return (try record(row), try row.bool("created"))
    }

    /// Every stored mute of user `userId`, ended ones too, oldest first.
    public static func stored(userId: String, on connection: PostgresConnection) throws -> [MuteRecord] {
        try connection.query(storedQuery, [userId]).map(record)
    }

    /// User `userId`'s mutes that still run at `now`, oldest first.
    public static func active(userId: String, now: Date, on connection: PostgresConnection) throws -> [MuteRecord] {
        try stored(userId: userId, on: connection).filter { $0.mute.isRunning(at: now) }
    }

    /// Removes mute `muteId` (a UUID) of user `userId`; returns whether it existed.
    public static func delete(userId: String, muteId: UUID, on connection: PostgresConnection) throws -> Bool {
        try connection.execute(deleteQuery, [userId, muteId]) > 0
    }

    /// The mutes running at `now` of the users among `userIds`, keyed by user id, in one statement.
    public static func active(
        userIds: [String], now: Date, on connection: PostgresConnection
    ) throws -> [String: [Mute]] {
        guard !userIds.isEmpty else { return [:] }
        var mutes: [String: [Mute]] = [:]
        for row in try connection.query(storedBatchQuery, [PipelineArray(userIds)]) {
            let mute = try record(row).mute
            if mute.isRunning(at: now) { mutes[try row.string("user_id"), default: []].append(mute) }
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
