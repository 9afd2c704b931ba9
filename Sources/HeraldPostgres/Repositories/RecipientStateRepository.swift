import Foundation
import HeraldCore

/// Loads the recipients' state for a batch and writes back what the decisions changed.
///
/// Workers serialize per user: the users' rows are locked (FOR NO KEY UPDATE, in id order so two workers never
/// deadlock on each other) before any of their state is read, and every piece of per-user state (unread count,
/// buckets, collapse groups, silent budgets, timers) is only written under that lock. Two events of one collapse
/// group therefore never see the same group state, and never produce two digests.
public enum RecipientStateRepository {
    /// The bucket scope of the per-user budget over all categories.
    public static let allCategoriesScope = "*"

    static let lockProfiles = Query(
        name: "recipients_lock",
        sql: """
            SELECT id, locale, time_zone, quiet_start_minute, quiet_end_minute, quiet_days, badge
            FROM users WHERE id = ANY($1::text[])
            ORDER BY id
            FOR NO KEY UPDATE
            """)
    static let readProfiles = Query(
        name: "recipients_read",
        sql: """
            SELECT id, locale, time_zone, quiet_start_minute, quiet_end_minute, quiet_days, badge
            FROM users WHERE id = ANY($1::text[])
            """)
    static let preferences = Query(
        name: "recipients_preferences",
        sql: "SELECT user_id, category_id, setting FROM user_preferences WHERE user_id = ANY($1::text[])")
    static let mutes = Query(
        name: "recipients_mutes",
        sql: """
            SELECT user_id, id::text AS id, scope, key, until FROM user_mutes
            WHERE user_id = ANY($1::text[]) AND (until IS NULL OR until > $2)
            """)
    static let devices = Query(
        name: "recipients_devices",
        sql: """
            SELECT installation_id, user_id, platform, token, web_push_p256dh, web_push_auth, environment, app_id,
                   locale, app_version, app_builds_notifications, active, last_registered_at
            FROM devices WHERE user_id = ANY($1::text[]) AND active
            ORDER BY user_id, installation_id
            """)
    static let unread = Query(
        name: "recipients_unread", sql: "SELECT user_id, unread FROM unread_counts WHERE user_id = ANY($1::text[])")
    static let buckets = Query(
        name: "recipients_buckets",
        sql: """
            SELECT user_id, scope, capacity, window_seconds, tokens, updated_at
            FROM rate_buckets WHERE user_id = ANY($1::text[])
            """)
    static let groups = Query(
        name: "recipients_groups",
        sql: "SELECT user_id, key, state::text AS state FROM collapse_groups WHERE user_id = ANY($1::text[])")
    static let budgets = Query(
        name: "recipients_budgets",
        sql: """
            SELECT installation_id, user_id, state::text AS state FROM silent_budgets WHERE user_id = ANY($1::text[])
            """)
    static let timers = Query(
        name: "recipients_due_timers",
        sql: """
            SELECT user_id, key, category_id, due_at FROM timers
            WHERE user_id = ANY($1::text[]) AND due_at <= $2
            ORDER BY due_at, user_id, key
            """)

    // Kept apart from the decisions, which retention drops: a user's positions never start over.
    static let feedPositions = Query(
        name: "recipients_feed_positions",
        sql: "SELECT user_id, position AS feed_seq FROM feed_positions WHERE user_id = ANY($1::text[])")

    static let dismissalStreaks = Query(
        name: "recipients_dismissal_streaks",
        sql: "SELECT user_id, category_id, streak FROM dismissal_streaks WHERE user_id = ANY($1::text[]) AND streak > 0"
    )

    /// Loads the state of `userIds` as of `now`; with `lock`, their user rows stay locked until the transaction
    /// ends (call it inside one). Unknown users are simply absent from the snapshot.
    public static func load(
        _ userIds: [String], now: Date, lock: Bool, on connection: PostgresConnection
    ) throws -> RecipientStateSnapshot {
        var snapshot = RecipientStateSnapshot()
        let sorted = Array(Set(userIds)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        guard !sorted.isEmpty else { return snapshot }
        // One round trip: the profiles (locked first, when asked) and then every piece of state, each statement
        // reading after the lock is held. Rows of users that do not exist are ignored below.
        let requested = PipelineArray(sorted)
        let all = try connection.pipeline([
            BoundQuery(lock ? lockProfiles : readProfiles, [requested]), BoundQuery(preferences, [requested]),
            BoundQuery(mutes, [requested, now]), BoundQuery(devices, [requested]), BoundQuery(unread, [requested]),
            BoundQuery(buckets, [requested]), BoundQuery(groups, [requested]), BoundQuery(budgets, [requested]),
            BoundQuery(timers, [requested, now]), BoundQuery(feedPositions, [requested]),
            BoundQuery(dismissalStreaks, [requested]), BoundQuery(LiveActivityRepository.ofUsers, [requested]),
        ])
        for row in all[0] {
            let profile = try Self.profile(row)
            snapshot.profiles[profile.id] = profile
        }
        guard !snapshot.profiles.isEmpty else { return snapshot }
        let known = snapshot.profiles
        let results = try all.dropFirst().map { result in
            try result.filter { known[try $0.string("user_id")] != nil }
        }
        for row in results[0] {
            guard let setting = PreferenceSetting(rawValue: try row.string("setting")) else { continue }
            snapshot.preferences[try row.string("user_id"), default: [:]][try row.string("category_id")] = setting
        }
        for row in results[1] {
            guard let scope = Mute.Scope(rawValue: try row.string("scope")) else { continue }
            let mute = Mute(
                id: try row.string("id"), scope: scope, key: try row.decode(String?.self, "key"),
                until: try row.decode(Date?.self, "until"))
            snapshot.mutes[try row.string("user_id"), default: []].append(mute)
        }
        for row in results[2] {
            if let device = try DeviceRepository.device(row) {
                snapshot.devices[device.userId, default: []].append(device)
            }
        }
        for row in results[3] { snapshot.unread[try row.string("user_id")] = try row.int("unread") }
        for row in results[4] {
            var bucket = TokenBucket(
                capacity: try row.int("capacity"), windowSeconds: try row.int("window_seconds"),
                at: try row.date("updated_at"))
            bucket.tokens = try row.double("tokens")
            snapshot.buckets[try row.string("user_id"), default: [:]][try row.string("scope")] = bucket
        }
        for row in results[5] {
            let group = try PipelineJSON.decode(CollapseGroup.self, from: try row.string("state"))
            snapshot.groups[try row.string("user_id"), default: [:]][try row.string("key")] = group
        }
        for row in results[6] {
            let budget = try PipelineJSON.decode(SilentBudget.self, from: try row.string("state"))
            snapshot.budgets[try row.string("installation_id")] = budget
        }
        snapshot.dueTimers = try results[7].map { row in
            TimerRecord(
                userId: try row.string("user_id"), key: try row.string("key"),
                categoryId: try row.string("category_id"), dueAt: try row.date("due_at"))
        }
        for row in results[8] {
            if let position = try row.decode(Int64?.self, "feed_seq") {
                snapshot.feedPositions[try row.string("user_id")] = position
            }
        }
        for row in results[9] {
            snapshot.dismissalStreaks[try row.string("user_id"), default: [:]][try row.string("category_id")] =
                try row.int("streak")
        }
        for row in results[10] {
            let user = try row.string("user_id")
            let installation = try row.string("installation_id")
            guard let index = snapshot.devices[user]?.firstIndex(where: { $0.installationId == installation })
            else { continue }
            snapshot.devices[user]![index].liveActivityTokens[try row.string("activity_id")] = try row.string("token")
        }
        return snapshot
    }

    static func profile(_ row: PostgresRow) throws -> UserProfile {
        var quietHours: QuietHours?
        if let start = try row.decode(Int?.self, "quiet_start_minute"),
            let end = try row.decode(Int?.self, "quiet_end_minute"),
            let from = LocalTime(hour: start / 60, minute: start % 60),
            let until = LocalTime(hour: end / 60, minute: end % 60)
        {
            let days = try row.decode(Int?.self, "quiet_days").map { mask in
                Set((0..<7).filter { mask & (1 << $0) != 0 }.map { Weekday(isoNumber: $0 + 1) })
            }
            quietHours = QuietHours(start: from, end: until, days: days)
        }
        return UserProfile(
            id: try row.string("id"), locale: try row.decode(String?.self, "locale"),
            timeZone: try row.decode(String?.self, "time_zone"), quietHours: quietHours, badge: try row.bool("badge"))
    }
}
