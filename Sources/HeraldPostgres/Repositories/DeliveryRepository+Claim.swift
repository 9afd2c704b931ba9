import Foundation
import HeraldCore

extension DeliveryRepository {
    /// The most attempts a delivery gets; a retry after that fails it for good.
    public static let maxAttempts = 10

    /// Leases that ran out go back to the queue (their consumer died or gave up), unless their device was lost or
    /// a newer push of their coalesce key came meanwhile: then they end (`0028_requeue_only_current_deliveries.sql`,
    /// which clears `finished_at` for the rows that really go back). One that had its `maxAttempts` claims fails
    /// for good, as a retry then would: a push that kills or hangs its consumer is not handed out until it expires.
    static let expireLeases = Query(
        name: "deliveries_expire_leases",
        sql: """
            UPDATE deliveries
            SET state = CASE WHEN attempts >= $2 THEN 'failed' ELSE 'queued' END,
                leased_until = NULL, lease_id = NULL, finished_at = $1,
                detail = CASE WHEN attempts >= $2 THEN 'lease expired on the last attempt' ELSE 'lease expired' END
            WHERE state = 'leased' AND leased_until <= $1
            RETURNING platform
            """)

    // The claim is one statement: the inner SELECT takes due rows with FOR UPDATE SKIP LOCKED, so concurrent
    // consumers (HTTP or SQL) each get disjoint rows and never wait for one another; the UPDATE leases them, or
    // drops them as expired when their TTL ran out while they waited. Oldest first. The day in the join lets each
    // row's update go to its own day partition instead of probing them all. Each row brings its user's unread count
    // now, for the badge of a push that waited (`PushBadge`).
    static let claimAny = Query(
        name: "deliveries_claim",
        joining: claimDue, "    WHERE state = 'queued' AND available_at <= $1", claimLease)
    static let claimPlatform = Query(
        name: "deliveries_claim_platform",
        joining: claimDue, "    WHERE state = 'queued' AND platform = $5 AND available_at <= $1", claimLease)
    /// The claim up to the due rows' filter, which is all that differs between claiming any platform and one.
    private static let claimDue: StaticString = """
        WITH due AS (
            SELECT id, stored_day FROM deliveries
        """
    /// The claim after the due rows' filter.
    private static let claimLease: StaticString = """
            ORDER BY available_at
            LIMIT $2
            FOR UPDATE SKIP LOCKED
        )
        UPDATE deliveries AS d
        SET state = CASE WHEN d.expires_at <= $1 THEN 'expired' ELSE 'leased' END,
            leased_until = CASE WHEN d.expires_at <= $1 THEN NULL
                                ELSE $1::timestamptz + make_interval(secs => $3::double precision) END,
            lease_id = CASE WHEN d.expires_at <= $1 THEN NULL ELSE $4 END,
            leased_at = CASE WHEN d.expires_at <= $1 THEN d.leased_at ELSE $1::timestamptz END,
            attempts = d.attempts + CASE WHEN d.expires_at <= $1 THEN 0 ELSE 1 END,
            finished_at = CASE WHEN d.expires_at <= $1 THEN $1::timestamptz END,
            detail = CASE WHEN d.expires_at <= $1 THEN 'expired before it was sent' ELSE d.detail END
        FROM due WHERE d.id = due.id AND d.stored_day = due.stored_day
        RETURNING d.id, d.notification_id, d.event_source, d.event_id, d.user_id, d.installation_id, d.platform,
                  d.environment, d.token, d.kind, d.headers::text AS headers, d.body, d.collapse_id, d.priority,
                  d.available_at, d.expires_at, d.state, d.leased_until, d.lease_id, d.attempts, d.created_at,
                  (SELECT c.unread FROM recipient_counters c WHERE c.user_id = d.user_id) AS unread
        """

    /// Takes expired leases back, then leases up to `limit` due deliveries (of `platform`, if given) for
    /// `leaseSeconds`, in one round trip and one transaction.
    public static func claim(
        platform: String?, limit: Int, leaseSeconds: Int, leaseId: String, now: Date,
        on connection: PostgresConnection
    ) throws -> DeliveryClaim {
        let claim =
            platform.map { BoundQuery(claimPlatform, [now, limit, leaseSeconds, leaseId, $0]) }
            ?? BoundQuery(claimAny, [now, limit, leaseSeconds, leaseId])
        let results = try connection.pipeline([BoundQuery(expireLeases, [now, maxAttempts]), claim])
        var leased: [DeliveryLease] = []
        var expired: [String] = []
        for row in results[1] {
            guard try row.string("state") == "leased" else {
                expired.append(try row.string("platform"))
                continue
            }
            leased.append(try lease(row, now: now))
        }
        leased.sort { ($0.availableAt, $0.id) < ($1.availableAt, $1.id) }
        return DeliveryClaim(
            leased: leased, expiredPlatforms: expired,
            leaseExpiredPlatforms: try results[0].map { try $0.string("platform") })
    }

    /// Takes expired leases back without claiming; returns their platforms.
    public static func expireLeases(now: Date, on connection: PostgresConnection) throws -> [String] {
        try connection.query(expireLeases, [now, maxAttempts]).map { try $0.string("platform") }
    }

    /// The lease of a claimed row, its relative time to live cut to what is left at `now` and, when it waited, its
    /// badge set to the user's unread count now.
    static func lease(_ row: PostgresRow, now: Date) throws -> DeliveryLease {
        var lease = DeliveryLease(
            id: try row.string("id"), notificationId: try row.decode(String?.self, "notification_id"),
            eventSource: try row.decode(String?.self, "event_source"),
            eventId: try row.decode(String?.self, "event_id"), userId: try row.string("user_id"),
            installationId: try row.string("installation_id"), platform: try row.string("platform"),
            environment: try row.string("environment"), token: try row.string("token"), kind: try row.string("kind"),
            headersJSON: try row.string("headers"), body: try row.string("body"),
            collapseId: try row.decode(String?.self, "collapse_id"), priority: try row.int("priority"),
            availableAt: try row.date("available_at"), expiresAt: try row.date("expires_at"),
            leasedUntil: try row.date("leased_until"), leaseId: try row.string("lease_id"),
            attempts: try row.int("attempts"))
        if let platform = Device.Platform(rawValue: lease.platform) {
            (lease.headersJSON, lease.body) = PushTimeToLive.handedOut(
                platform: platform, headers: lease.headersJSON, body: lease.body, expiresAt: lease.expiresAt, now: now)
            lease.body = PushBadge.handedOut(
                platform: platform, body: lease.body, createdAt: try row.date("created_at"),
                availableAt: lease.availableAt, attempt: lease.attempts, unread: try row.decode(Int?.self, "unread"))
        }
        return lease
    }

    // One capped walk of deliveries_claim_platform per platform: the cost is bounded by the cap, never the backlog
    // a stalled consumer leaves behind.
    static let depth = Query(
        name: "deliveries_depth",
        sql: """
            SELECT p.platform,
                   (SELECT count(*) FROM (
                        SELECT 1 FROM deliveries d WHERE d.state = 'queued' AND d.platform = p.platform LIMIT $2
                    ) AS q) AS queued
            FROM unnest($1::text[]) AS p(platform)
            """)

    /// Queued deliveries per platform, each counted up to `cap`.
    public static func queueDepth(cap: Int, on connection: PostgresConnection) throws -> [String: Int] {
        var queued: [String: Int] = [:]
        let platforms = PipelineArray(Device.Platform.allCases.map(\.rawValue))
        for row in try connection.query(depth, [platforms, cap]) {
            queued[try row.string("platform")] = try row.int("queued")
        }
        return queued
    }
}
