import Foundation
import HeraldCore

/// Every piece of the recipients' state except their profiles, read by ONE statement: a statement costs its
/// parse, plan and executor start however few rows it returns, and a small batch reads only a handful of rows
/// from each of ten tables. Each row says which piece it is; the columns after the user id are positional.
extension RecipientStateRepository {
    /// Which table a row of `pieces` comes from.
    enum Piece: Int {
        case preference = 1
        case mute
        case device
        case counters
        case bucket
        case group
        case budget
        case timer
        case dismissalStreak = 10
        case liveActivityToken
    }

    /// Columns: 0 piece, 1 user id, 2–12 text, 13 a time. The devices come first, so that the columns carry the
    /// names of the devices table's and a device row decodes as any other (`DeviceRepository.device`).
    static let pieces = Query(
        name: "recipients_state",
        sql: """
            SELECT 3 AS piece, user_id, installation_id, platform, token, web_push_p256dh, web_push_auth, environment,
                   app_id, locale, app_version, app_builds_notifications::text AS app_builds_notifications,
                   active::text AS active, last_registered_at
            FROM devices WHERE user_id = ANY($1::text[]) AND active
            UNION ALL
            SELECT 1, user_id, category_id, setting, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
            FROM user_preferences WHERE user_id = ANY($1::text[])
            UNION ALL
            SELECT 2, user_id, id::text, scope, key, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, until
            FROM user_mutes WHERE user_id = ANY($1::text[])
            UNION ALL
            -- The unread count, the last feed position (kept apart from the decisions, which retention drops: a
            -- user's positions never start over) and the user-wide bucket, in one row.
            SELECT 4, user_id, unread::text, feed_position::text, bucket_capacity::text, bucket_window_seconds::text,
                   bucket_tokens::text, NULL, NULL, NULL, NULL, NULL, NULL, bucket_updated_at
            FROM recipient_counters WHERE user_id = ANY($1::text[])
            UNION ALL
            SELECT 5, user_id, scope, capacity::text, window_seconds::text, tokens::text, NULL, NULL, NULL, NULL, NULL,
                   NULL, NULL, updated_at
            FROM rate_buckets WHERE user_id = ANY($1::text[])
            UNION ALL
            SELECT 6, user_id, key, state::text, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
            FROM collapse_groups WHERE user_id = ANY($1::text[])
            UNION ALL
            SELECT 7, user_id, installation_id, state::text, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
            FROM silent_budgets WHERE user_id = ANY($1::text[])
            UNION ALL
            SELECT 8, user_id, key, category_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, due_at
            FROM timers WHERE user_id = ANY($1::text[]) AND due_at <= $2
            UNION ALL
            SELECT 10, user_id, category_id, streak::text, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
            FROM dismissal_streaks WHERE user_id = ANY($1::text[]) AND streak > 0
            UNION ALL
            SELECT 11, d.user_id, t.installation_id, t.activity_id, t.token, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                   NULL, NULL
            FROM live_activity_tokens t JOIN devices d ON d.installation_id = t.installation_id
            WHERE d.user_id = ANY($1::text[]) AND d.active
            """)

    /// Adds the rows of `pieces` to `snapshot`, skipping users it has no profile of (they do not exist, or were
    /// not locked). Devices come in installation order per user, due timers in due order.
    static func add(_ rows: PostgresResult, to snapshot: inout RecipientStateSnapshot) throws {
        var activityTokens: [PostgresRow] = []
        let deviceColumns = try rows.first.map(DeviceColumns.init)
        for row in rows {
            let userId = try row.string(1)
            guard snapshot.profiles.index(forKey: userId) != nil, let piece = Piece(rawValue: try row.int(0)) else {
                continue
            }
            if piece == .liveActivityToken {
                activityTokens.append(row)
            } else if piece == .device, let deviceColumns {
                if let device = try DeviceRepository.device(row, deviceColumns) {
                    snapshot.devices[userId, default: []].append(device)
                }
            } else {
                try add(piece, row, userId: userId, to: &snapshot)
            }
        }
        // A Live Activity token belongs to a device of the snapshot: added once every device is in.
        for row in activityTokens {
            let userId = try row.string(1)
            let installationId = try row.string(2)
            guard let index = snapshot.devices[userId]?.firstIndex(where: { $0.installationId == installationId })
            else { continue }
            snapshot.devices[userId]![index].liveActivityTokens[try row.string(3)] = try row.string(4)
        }
        for (userId, devices) in snapshot.devices where devices.count > 1 {
            snapshot.devices[userId] = devices.sorted { UTF8Order.precedes($0.installationId, $1.installationId) }
        }
        snapshot.dueTimers.sort { a, b in
            if a.dueAt != b.dueAt { return a.dueAt < b.dueAt }
            if a.userId != b.userId { return UTF8Order.precedes(a.userId, b.userId) }
            return UTF8Order.precedes(a.key, b.key)
        }
    }

    /// The bucket whose capacity, window and tokens are the row's columns from `column` on, refilled last at the
    /// row's time.
    private static func bucket(_ row: PostgresRow, from column: Int) throws -> TokenBucket {
        var bucket = TokenBucket(
            capacity: try row.int(column), windowSeconds: try row.int(column + 1), at: try row.date(13))
        bucket.tokens = try row.double(column + 2)
        return bucket
    }

    private static func add(
        _ piece: Piece, _ row: PostgresRow, userId: String, to snapshot: inout RecipientStateSnapshot
    ) throws {
        switch piece {
        case .preference:
            guard let setting = PreferenceSetting(rawValue: try row.string(3)) else { return }
            snapshot.preferences[userId, default: [:]][try row.string(2)] = setting
        case .mute:
            guard let scope = Mute.Scope(rawValue: try row.string(3)) else { return }
            let mute = Mute(
                id: try row.string(2), scope: scope, key: try row.decode(String?.self, 4),
                until: try row.decode(Date?.self, 13))
            snapshot.mutes[userId, default: []].append(mute)
        case .device:
            break  // Added by `add(_:to:)`, which finds the device columns once.
        case .counters:
            snapshot.unread[userId] = try row.int(2)
            let position = try row.int64(3)
            if position > 0 { snapshot.feedPositions[userId] = position }
            if try row.decode(Int?.self, 4) != nil {
                snapshot.buckets[userId, default: [:]][allCategoriesScope] = try bucket(row, from: 4)
            }
        case .bucket:
            snapshot.buckets[userId, default: [:]][try row.string(2)] = try bucket(row, from: 3)
        case .group:
            snapshot.groups[userId, default: [:]][try row.string(2)] = try PipelineJSON.decode(
                CollapseGroup.self, from: try row.string(3))
        case .budget:
            snapshot.budgets[try row.string(2)] = try PipelineJSON.decode(SilentBudget.self, from: try row.string(3))
        case .timer:
            snapshot.dueTimers.append(
                TimerRecord(
                    userId: userId, key: try row.string(2), categoryId: try row.string(3), dueAt: try row.date(13)))
        case .dismissalStreak:
            snapshot.dismissalStreaks[userId, default: [:]][try row.string(2)] = try row.int(3)
        case .liveActivityToken:
            break  // Added to its device by `add(_:to:)`, after the devices.
        }
    }
}
