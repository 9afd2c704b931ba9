import Foundation
import HeraldCore

/// The SQL of receipts: stored once per (notification, device, event), counted per category.
public enum ReceiptRepository {
    // A receipt names a notification, or a digest (the `nid` of its pushes). A digest's row comes once for each
    // notification that may belong to the burst it summarises: its user's notifications with its collapse id,
    // decided from the instant the burst began to the instant the digest was (once with no notification when it
    // names no burst, or none was found). Which of them are the burst's is `BurstMembership`'s to decide. The walk
    // is over the user's notifications (decisions_notification), only for digests named.
    static let targets = Query(
        name: "receipts_targets",
        sql: """
            SELECT d.notification_id, e.category_id, NULL AS digest_key, d.notification_id AS opens_id,
                   d.item_id AS opens_item_id, NULL AS collapse_id, NULL::timestamptz AS burst_started_at,
                   NULL::text AS burst_known_ids, NULL::integer AS event_count, NULL::text AS opens_category_id,
                   NULL::timestamptz AS opens_decided_at, NULL::bigint AS opens_seq
            FROM decisions d JOIN events e ON e.seq = d.event_seq
            WHERE d.user_id = $1 AND d.notification_id = ANY($2::text[])
            UNION ALL
            SELECT g.notification_id, g.category_id, g.collapse_key, b.notification_id, b.item_id, g.collapse_id,
                   g.burst_started_at, array_to_string(g.burst_known_ids, ','), g.event_count, b.category_id,
                   b.decided_at, b.event_seq
            FROM digests g
            LEFT JOIN LATERAL (
                SELECT d.notification_id, d.item_id, e.category_id, d.decided_at, d.event_seq
                FROM decisions d JOIN events e ON e.seq = d.event_seq
                WHERE d.user_id = g.user_id AND d.notification_id IS NOT NULL AND d.collapse_id = g.collapse_id
                  AND d.decided_at BETWEEN g.burst_started_at AND g.decided_at
            ) AS b ON true
            WHERE g.user_id = $1 AND g.notification_id = ANY($2::text[])
            """)
    static let insert = Query(
        name: "receipts_insert",
        sql: """
            INSERT INTO receipts (user_id, notification_id, device, event, category_id, at, received_at)
            SELECT $1, n, dev, ev, c, at, $7
            FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS x(n, dev, ev, c, at)
            ON CONFLICT ON CONSTRAINT receipts_pkey DO NOTHING
            RETURNING notification_id, event, category_id, at
            """)
    static let countsByCategory = Query(
        name: "receipts_category_counts",
        sql: "SELECT event, count(*) AS n FROM receipts WHERE category_id = $1 GROUP BY event")

    /// The notifications and digests among `ids` that belong to `userId` (another user's id is simply not found),
    /// each with what an open of it reads.
    public static func targets(
        userId: String, notificationIds: [String], on connection: PostgresConnection
    ) throws -> [String: ReceiptTarget] {
        var found: [String: ReceiptTarget] = [:]
        var bursts: [String: (membership: BurstMembership, count: Int, candidates: [BurstNotification])] = [:]
        for row in try connection.query(targets, [userId, PipelineArray(notificationIds)]) {
            let id = try row.string("notification_id")
            let categoryId = try row.string("category_id")
            var target = found[id] ?? ReceiptTarget(notificationId: id, categoryId: categoryId, opens: [])
            defer { found[id] = target }
            guard let opened = try row.decode(String?.self, "opens_id") else { continue }
            let itemId = try row.decode(String?.self, "opens_item_id")
            guard let key = try row.decode(String?.self, "digest_key") else {
                target.opens.append(OpenedNotification(notificationId: opened, itemId: itemId))
                continue
            }
            guard let collapseId = try row.decode(String?.self, "collapse_id"),
                let startedAt = try row.decode(Date?.self, "burst_started_at")
            else { continue }
            let known = try row.decode(String?.self, "burst_known_ids").map(Self.idSet)
            let count = try row.int("event_count")
            var burst =
                bursts[id]
                ?? (BurstMembership(key: key, collapseId: collapseId, startedAt: startedAt, known: known), count, [])
            burst.candidates.append(
                BurstNotification(
                    notificationId: opened, collapseId: collapseId, categoryId: try row.string("opens_category_id"),
                    decidedAt: try row.date("opens_decided_at"), eventSeq: try row.int64("opens_seq"),
                    itemId: itemId))
            bursts[id] = burst
        }
        for (id, burst) in bursts {
            found[id]?.opens = burst.membership.first(burst.count, of: burst.candidates).map {
                OpenedNotification(notificationId: $0.notificationId, itemId: $0.itemId)
            }
        }
        return found
    }

    private static func idSet(_ text: String) -> Set<String> {
        Set(text.split(separator: ",").map(String.init))
    }

    /// Stores the receipts whose notification is in `targets`; returns the ones that were new, as (event, category).
    public static func store(
        userId: String, _ receipts: [ReceiptInput], targets: [String: ReceiptTarget], now: Date,
        on connection: PostgresConnection
    ) throws -> [(kind: ReceiptKind, categoryId: String, at: Date)] {
        let known = receipts.filter { targets[$0.notificationId] != nil }
        guard !known.isEmpty else { return [] }
        let rows = try connection.query(
            insert,
            [
                userId, PipelineArray(known.map(\.notificationId)), PipelineArray(known.map(\.device)),
                PipelineArray(known.map(\.event.rawValue)),
                PipelineArray(known.map { targets[$0.notificationId]!.categoryId }),
                PipelineArray(known.map { $0.at.postgresText }), now,
            ])
        return try rows.compactMap { row in
            try ReceiptKind(rawValue: row.string("event")).map {
                ($0, try row.string("category_id"), try row.date("at"))
            }
        }
    }

    static let streaks = Query(
        name: "receipts_streaks",
        sql: """
            SELECT category_id, streak FROM dismissal_streaks
            WHERE user_id = $1 AND category_id = ANY($2::text[])
            FOR UPDATE
            """)
    static let setStreaks = Query(
        name: "receipts_set_streaks",
        sql: """
            INSERT INTO dismissal_streaks (user_id, category_id, streak, updated_at)
            SELECT $1, c, s, $4 FROM unnest($2::text[], $3::integer[]) AS x(c, s)
            ON CONFLICT ON CONSTRAINT dismissal_streaks_pkey DO UPDATE SET streak = excluded.streak,
                                                                       updated_at = excluded.updated_at
            """)

    /// Advances the user's dismissal streaks by newly stored receipts (`InterruptionBudget.streaks`); the same
    /// transaction locks the rows so two batches of one user never lose an update.
    public static func advanceStreaks(
        userId: String, _ stored: [(kind: ReceiptKind, categoryId: String, at: Date)], now: Date,
        on connection: PostgresConnection
    ) throws {
        let categories = Set(stored.filter(\.kind.movesDismissalStreak).map(\.categoryId)).sorted()
        guard !categories.isEmpty else { return }
        try connection.transaction { connection in
            var current: [String: Int] = [:]
            for row in try connection.query(streaks, [userId, PipelineArray(categories)]) {
                current[try row.string("category_id")] = try row.int("streak")
            }
            let next = InterruptionBudget.streaks(after: stored, current: current)
            _ = try connection.execute(
                setStreaks,
                [userId, PipelineArray(categories), PipelineArray(categories.map { String(next[$0] ?? 0) }), now])
        }
    }

    /// Displayed, opened and dismissed receipts of one category.
    public static func counts(categoryId: String, on connection: PostgresConnection) throws -> ReceiptCounts {
        var counts = ReceiptCounts()
        for row in try connection.query(countsByCategory, [categoryId]) {
            switch ReceiptKind(rawValue: try row.string("event")) {
            case .displayed: counts.displayed = try row.int("n")
            case .opened: counts.opened = try row.int("n")
            case .dismissed: counts.dismissed = try row.int("n")
            case nil: break
            }
        }
        return counts
    }
}
