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
    /// The statement that locks the rows of `userIds` (and reads their profiles), in the order every worker takes
    /// them; the first statement of `load` with `lock`.
    public static func lockQuery(_ userIds: [String]) -> BoundQuery {
        BoundQuery(lockProfiles, [PipelineArray(distinctForLocking(userIds))])
    }

    /// Distinct ids. The statements lock them in id order (`ORDER BY id`, byte order under the column's "C"
    /// collation), the order every writer takes users in, so that no two deadlock; the server sorts them, so the
    /// array's own order does not matter.
    static func distinctForLocking(_ userIds: [String]) -> [String] {
        Array(Set(userIds))
    }

    /// Loads the state of `userIds` as of `now`; with `lock`, their user rows stay locked until the transaction
    /// ends (call it inside one). Unknown users are simply absent from the snapshot.
    public static func load(
        _ userIds: [String], now: Date, lock: Bool, on connection: PostgresConnection
    ) throws -> RecipientStateSnapshot {
        try load(userIds, now: now, lock: lock, alongside: [], on: connection).snapshot
    }

    /// `load`, with `alongside` sent in the same round trip after the state's statements; returns their results
    /// in order.
    public static func load(
        _ userIds: [String], now: Date, lock: Bool, alongside: [BoundQuery], on connection: PostgresConnection
    ) throws -> (snapshot: RecipientStateSnapshot, alongside: [PostgresResult]) {
        var snapshot = RecipientStateSnapshot()
        let distinct = distinctForLocking(userIds)
        guard !distinct.isEmpty else {
            return (snapshot, alongside.isEmpty ? [] : try connection.pipeline(alongside))
        }
        // One round trip: the profiles (locked first, when asked), then every other piece of state in one
        // statement, which reads after the lock is held. Rows of users that do not exist are ignored.
        let requested = PipelineArray(distinct)
        let all = try connection.pipeline(
            [BoundQuery(lock ? lockProfiles : readProfiles, [requested]), BoundQuery(pieces, [requested, now])]
                + alongside)
        for row in all[0] {
            let profile = try UserRepository.profile(row)
            snapshot.profiles[profile.id] = profile
        }
        if !snapshot.profiles.isEmpty { try add(all[1], to: &snapshot) }
        return (snapshot, Array(all.dropFirst(2)))
    }
}
