import Foundation
import HeraldCore

/// The SQL of retention (see `0011_retention.sql`): day partitions created ahead of time, partitions past the
/// retention period dropped whole, and the idempotency keys of dropped events trimmed in bounded chunks.
public enum RetentionRepository {
    /// A partition of `events`, `decisions`, `digests` or `deliveries`.
    public struct Partition: Sendable, Equatable {
        /// The partitioned table.
        public var table: String
        /// The partition, named after its UTC day: `events_20261130`, or `events_before_20261130` for rows stored
        /// before partitioning.
        public var name: String
    }

    static let today = Query(name: "retention_today", sql: "SELECT herald_day_number(now())")
    static let ensure = Query(name: "retention_ensure", sql: "SELECT herald_partitions_ensure($1, $2)")
    static let expired = Query(
        name: "retention_expired", sql: "SELECT parent, name FROM herald_partitions_expired($1)")
    static let drop = Query(name: "retention_drop", sql: "SELECT herald_partition_drop($1)")
    static let dropTimeout = Query(name: "retention_drop_timeout", sql: "SET LOCAL lock_timeout = '5s'")
    static let unreadGoing = Query(
        name: "retention_unread_going", sql: "SELECT user_id, unread, gone FROM herald_partition_unread($1, $2, $3, $4)"
    )
    static let setUnread = Query(
        name: "retention_set_unread",
        sql: """
            UPDATE recipient_counters AS c SET unread = x.unread, unread_updated_at = $3
            FROM unnest($1::text[], $2::integer[]) AS x(user_id, unread)
            WHERE c.user_id = x.user_id
            """)
    // Queued deliveries of days past retention whose time to live ran out can never be sent; marking them
    // expired (as a claim would) lets their day go even when nothing consumes the queue. The time to live is
    // compared with the service's clock (`$2`), which also stamped it; the storage day with the database's day.
    static let expireQueued = Query(
        name: "retention_expire_queued",
        sql: """
            UPDATE deliveries SET state = 'expired', finished_at = $2, detail = 'expired before it was sent'
            WHERE stored_day < $1 AND state = 'queued' AND expires_at <= $2
            """)
    static let list = Query(name: "retention_partitions", sql: "SELECT parent, name FROM herald_partitions()")
    // Keys below the first seq of the oldest events partition belong to dropped events. Nothing is trimmed while
    // rows from before partitioning remain, since those seqs carry no day.
    static let trimKeys = Query(
        name: "retention_trim_keys",
        sql: """
            DELETE FROM event_keys WHERE ctid = ANY (ARRAY(
                SELECT k.ctid FROM event_keys k
                WHERE k.seq < (
                    SELECT CASE WHEN bool_or(p.legacy) THEN NULL ELSE (min(p.end_day) - 1)::bigint << 44 END
                    FROM herald_partitions() p WHERE p.parent = 'events')
                LIMIT $1))
            """)

    /// The database's current UTC day number (days since 1970-01-01), which the partitions follow. This is a
    /// storage address, not a policy time: rows land in the partition of the database's day (`stored_day` and the
    /// seq's high bits default to it), so creating and dropping partitions counts days on the same clock.
    public static func today(on connection: PostgresConnection) throws -> Int {
        try connection.query(today).single().int(0)
    }

    /// Creates the missing day partitions from `first` to `last` (UTC day numbers); returns their names.
    @discardableResult
    public static func ensurePartitions(
        from first: Int, through last: Int, on connection: PostgresConnection
    )
        throws -> [String]
    {
        try connection.query(ensure, [first, last]).map { try $0.string(0) }
    }

    /// Creates the partitions of today and the next `daysAhead` days that are missing.
    @discardableResult
    public static func ensurePartitions(daysAhead: Int, on connection: PostgresConnection) throws -> [String] {
        let day = try today(on: connection)
        return try ensurePartitions(from: day, through: day + daysAhead, on: connection)
    }

    /// The partitions wholly before `day` that may go now: none holding an undecided event or a queued or leased
    /// delivery, and decisions only together with their events. Decisions come before their events.
    public static func expiredPartitions(before day: Int, on connection: PostgresConnection) throws -> [Partition] {
        try connection.query(expired, [day]).map { Partition(table: try $0.string(0), name: try $0.string(1)) }
    }

    /// Marks expired the queued deliveries stored before `day` whose time to live ran out by `now`; returns how
    /// many.
    public static func expireQueuedDeliveries(
        before day: Int, now: Date, on connection: PostgresConnection
    ) throws -> Int {
        try connection.query(expireQueued, [day, now]).affectedRows
    }

    /// Every partition of the four tables.
    public static func partitions(on connection: PostgresConnection) throws -> [Partition] {
        try connection.query(list).map { Partition(table: try $0.string(0), name: try $0.string(1)) }
    }

    /// What dropping a day of decisions takes from one user's unread count.
    public struct UnreadGoing: Sendable, Equatable {
        public var userId: String
        /// The user's count now; nil when the user has no counters row (or no longer exists).
        public var unread: Int?
        /// How many of the user's unread notifications the day holds.
        public var gone: Int
    }

    /// Drops one partition `expiredPartitions` returned, in a transaction of its own in which no lock is waited
    /// for more than five seconds. Before a day of decisions goes, the users with an unread notification in it
    /// are read `chunk` at a time in id order, each chunk's rows locked, and their counts lowered by those
    /// notifications (`UnreadCount.lowered`), stamped `now`.
    public static func drop(
        _ partition: Partition, now: Date, chunk: Int = 10_000, on connection: PostgresConnection
    ) throws {
        try connection.transaction { connection in
            try connection.executeScript(dropTimeout)
            if partition.table == "decisions" {
                var after = ""
                while true {
                    let going = try connection.query(
                        unreadGoing, [partition.name, after, chunk, UnreadCount.clockAllowance]
                    ).map {
                        UnreadGoing(userId: try $0.string(0), unread: try $0.decode(Int?.self, 1), gone: try $0.int(2))
                    }
                    let lowered = going.filter { $0.unread != nil && $0.gone > 0 }
                    if !lowered.isEmpty {
                        let counts = lowered.map { UnreadCount.lowered($0.unread ?? 0, by: $0.gone) }
                        try connection.query(
                            setUnread, [PipelineArray(lowered.map(\.userId)), PipelineArray(encoding: counts), now])
                    }
                    guard going.count >= chunk, let last = going.last else { break }
                    after = last.userId
                }
            }
            try connection.query(drop, [partition.name])
        }
    }

    /// Deletes up to `limit` idempotency keys of dropped events; returns how many went.
    public static func trimKeys(limit: Int, on connection: PostgresConnection) throws -> Int {
        try connection.query(trimKeys, [limit]).affectedRows
    }
}
