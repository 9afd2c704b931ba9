import Foundation

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
    static let drop = Query(name: "retention_drop", sql: "SELECT herald_partition_drop($1, $2)")
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

    /// Drops one partition `expiredPartitions` returned, in its own transaction, waiting at most five seconds
    /// for each lock. A day of decisions first lowers the unread counts of its unread notifications' users, as of
    /// `now`, under their row locks.
    public static func drop(_ partition: Partition, now: Date, on connection: PostgresConnection) throws {
        try connection.query(drop, [partition.name, now])
    }

    /// Deletes up to `limit` idempotency keys of dropped events; returns how many went.
    public static func trimKeys(limit: Int, on connection: PostgresConnection) throws -> Int {
        try connection.query(trimKeys, [limit]).affectedRows
    }
}
