import Foundation
import HeraldCore

/// The SQL of users: profile upserts, reads, deletion with everything that hangs off a user, and the batch load of
/// profiles for the decision pipeline.
public enum UserRepository {
    static let upsertQuery = Query(
        name: "users_upsert",
        sql: """
            INSERT INTO users (id, locale, time_zone, quiet_start_minute, quiet_end_minute, quiet_days, badge,
                               created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
            ON CONFLICT (id) DO UPDATE SET
                locale = EXCLUDED.locale, time_zone = EXCLUDED.time_zone,
                quiet_start_minute = EXCLUDED.quiet_start_minute, quiet_end_minute = EXCLUDED.quiet_end_minute,
                quiet_days = EXCLUDED.quiet_days, badge = EXCLUDED.badge, updated_at = EXCLUDED.updated_at
            RETURNING created_at, updated_at, (xmax = 0) AS created
            """)
    static let ensureQuery = Query(
        name: "users_ensure",
        sql: """
            INSERT INTO users (id, created_at, updated_at) VALUES ($1, $2, $2) ON CONFLICT (id) DO NOTHING
            """)
    static let findQuery = Query(
        name: "users_find",
        sql: """
            SELECT id, locale, time_zone, quiet_start_minute, quiet_end_minute, quiet_days, badge, created_at,
                   updated_at
            FROM users WHERE id = $1
            """)
    static let findForChangeQuery = Query(
        name: "users_find_for_change",
        sql: """
            SELECT id, locale, time_zone, quiet_start_minute, quiet_end_minute, quiet_days, badge, created_at,
                   updated_at
            FROM users WHERE id = $1 FOR NO KEY UPDATE
            """)
    static let existsQuery = Query(name: "users_exists", sql: "SELECT 1 FROM users WHERE id = $1")
    static let createdAtQuery = Query(name: "users_created_at", sql: "SELECT created_at FROM users WHERE id = $1")
    static let lockQuery = Query(name: "users_lock", sql: "SELECT 1 FROM users WHERE id = $1 FOR UPDATE")
    static let lockForCountingQuery = Query(
        name: "users_lock_for_counting", sql: "SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE")
    static let batchQuery = Query(
        name: "users_batch",
        sql: """
            SELECT id, locale, time_zone, quiet_start_minute, quiet_end_minute, quiet_days, badge, created_at,
                   updated_at
            FROM users WHERE id = ANY($1::text[])
            """)
    // Deleting a user: every dependent table explicitly, in one transaction, so the set of things removed is
    // visible here (the foreign keys cascade as a safety net).
    static let deleteDevices = Query(name: "users_delete_devices", sql: "DELETE FROM devices WHERE user_id = $1")
    static let deletePreferences = Query(
        name: "users_delete_preferences", sql: "DELETE FROM user_preferences WHERE user_id = $1")
    static let deleteMutes = Query(name: "users_delete_mutes", sql: "DELETE FROM user_mutes WHERE user_id = $1")
    static let deleteSubscriptions = Query(
        name: "users_delete_subscriptions", sql: "DELETE FROM topic_subscriptions WHERE user_id = $1")
    static let deleteDeactivations = Query(
        name: "users_delete_deactivations", sql: "DELETE FROM device_deactivations WHERE user_id = $1")
    // What the user's apps reported and learned: a user created again under the id is another person.
    static let deleteReceipts = Query(name: "users_delete_receipts", sql: "DELETE FROM receipts WHERE user_id = $1")
    static let deleteDismissalStreaks = Query(
        name: "users_delete_dismissal_streaks", sql: "DELETE FROM dismissal_streaks WHERE user_id = $1")
    static let deleteUser = Query(name: "users_delete", sql: "DELETE FROM users WHERE id = $1")
    /// A deleted user's notifications stay as the record of what was decided, but leave the feed and count as read
    /// from then on: an id created again is another person, who must neither see them nor read them.
    static let retireNotifications = Query(
        name: "users_retire_notifications",
        sql: """
            UPDATE decisions SET feed_seq = NULL, counts_unread = false, read_at = coalesce(read_at, $2)
            WHERE user_id = $1 AND notification_id IS NOT NULL
              AND (feed_seq IS NOT NULL OR counts_unread OR read_at IS NULL)
            """)

    /// Creates or replaces the profile at `now`; returns the stored record and whether the user is new.
    public static func upsert(
        _ profile: UserProfile, now: Date, on connection: PostgresConnection
    ) throws -> (record: UserRecord, created: Bool) {
        let quiet = profile.quietHours
        let row = try connection.query(
            upsertQuery,
            [
                profile.id, profile.locale, profile.timeZone, quiet?.start.minutesSinceMidnight,
                quiet?.end.minutesSinceMidnight, quiet?.days.map(WeekdayMask.mask), profile.badge, now,
            ]
        ).single()
        let record = UserRecord(
            profile: profile, createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"))
        return (record, try row.bool("created"))
    }

    /// Creates user `id` with default settings unless it exists.
    public static func ensure(id: String, now: Date, on connection: PostgresConnection) throws {
        try connection.execute(ensureQuery, [id, now])
    }

    /// The user `id`, if it exists.
    public static func find(id: String, on connection: PostgresConnection) throws -> UserRecord? {
        try connection.query(findQuery, [id]).first.map(record)
    }

    /// The user `id`, if it exists, with its row locked until the transaction ends: for a change of part of the
    /// profile, which must not lose another writer's change in between.
    public static func findForChange(id: String, on connection: PostgresConnection) throws -> UserRecord? {
        try connection.query(findForChangeQuery, [id]).first.map(record)
    }

    /// When user `id` was created, or nil when there is no such user.
    public static func createdAt(id: String, on connection: PostgresConnection) throws -> Date? {
        try connection.query(createdAtQuery, [id]).first.map { try $0.date(0) }
    }

    /// Locks user `id`'s row until the transaction ends, against every other writer that counts the user's rows
    /// against a cap (devices, mutes), so that two cannot both see room for one more; returns whether the user
    /// exists. Call it inside a transaction.
    public static func lockForCounting(id: String, on connection: PostgresConnection) throws -> Bool {
        !(try connection.query(lockForCountingQuery, [id]).isEmpty)
    }

    /// Whether user `id` exists.
    public static func exists(id: String, on connection: PostgresConnection) throws -> Bool {
        !(try connection.query(existsQuery, [id]).isEmpty)
    }

    /// The profiles of the users among `ids` that exist, keyed by id, in one statement.
    public static func profiles(ids: [String], on connection: PostgresConnection) throws -> [String: UserProfile] {
        guard !ids.isEmpty else { return [:] }
        var profiles: [String: UserProfile] = [:]
        for row in try connection.query(batchQuery, [PipelineArray(ids)]) {
            let profile = try record(row).profile
            profiles[profile.id] = profile
        }
        return profiles
    }

    /// Removes user `id` with its devices, preferences, mutes, subscriptions, deactivation history, receipts and
    /// dismissal streaks in one transaction, and retires its notifications as of `now` (out of the feed, read); returns whether the user
    /// existed.
    public static func delete(id: String, now: Date, on connection: PostgresConnection) throws -> Bool {
        try connection.transaction { connection in
            // Locking the row first makes a concurrent device registration for this user wait, then fail its
            // foreign key, instead of leaving a device behind.
            guard !(try connection.query(lockQuery, [id]).isEmpty) else { return false }
            for statement in [
                deleteDevices, deletePreferences, deleteMutes, deleteSubscriptions, deleteDeactivations,
                deleteReceipts, deleteDismissalStreaks,
            ] {
                try connection.execute(statement, [id])
            }
            try connection.execute(retireNotifications, [id, now])
            try connection.execute(deleteUser, [id])
            return true
        }
    }

    static func record(_ row: PostgresRow) throws -> UserRecord {
        UserRecord(
            profile: try profile(row), createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"))
    }

    /// The profile a row of `users` holds: its quiet hours from their minutes and the days' mask (`WeekdayMask`).
    static func profile(_ row: PostgresRow) throws -> UserProfile {
        var quietHours: QuietHours?
        if let start = try row.decode(Int?.self, "quiet_start_minute"),
            let end = try row.decode(Int?.self, "quiet_end_minute"),
            let startTime = LocalTime(hour: start / 60, minute: start % 60),
            let endTime = LocalTime(hour: end / 60, minute: end % 60)
        {
            let days = try row.decode(Int?.self, "quiet_days").map(WeekdayMask.days)
            quietHours = QuietHours(start: startTime, end: endTime, days: days)
        }
        return UserProfile(
            id: try row.string("id"), locale: try row.decode(String?.self, "locale"),
            timeZone: try row.decode(String?.self, "time_zone"), quietHours: quietHours,
            badge: try row.bool("badge"))
    }
}
