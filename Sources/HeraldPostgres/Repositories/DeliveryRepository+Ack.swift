import Foundation

extension DeliveryRepository {
    // A retry waits 5 s × 2^(attempts − 1), at most an hour, unless the consumer names a delay; after
    // `maxAttempts` the delivery fails for good. An ack applies only while the row still holds the lease it names:
    // once the lease ran out and the row was taken back (by the service's clock) or claimed by another consumer, the
    // late ack matches no row and changes nothing (no state, no dead-token drop, no device deactivation). A retry
    // whose device was lost, or whose coalesce key got a newer push, ends instead of going back to the queue
    // (`0028_requeue_only_current_deliveries.sql`, which also clears `finished_at` for a row that goes back).
    static let ack = Query(
        name: "deliveries_ack",
        sql: """
            UPDATE deliveries AS d
            SET state = CASE a.outcome WHEN 'sent' THEN 'sent' WHEN 'dead_token' THEN 'dead_token'
                        ELSE CASE WHEN d.attempts >= $2 THEN 'failed' ELSE 'queued' END END,
                leased_until = NULL, lease_id = NULL,
                available_at = CASE WHEN a.outcome = 'retry' AND d.attempts < $2
                    THEN $1::timestamptz + make_interval(secs => COALESCE(a.retry_after,
                                                             least(3600, 5 * power(2, greatest(d.attempts - 1, 0)))))
                    ELSE d.available_at END,
                finished_at = $1::timestamptz,
                detail = a.detail
            FROM unnest($3::text[], $4::text[], $5::text[], $6::double precision[], $7::text[])
                 AS a(id, outcome, detail, retry_after, lease_id)
            WHERE d.id = a.id AND d.state = 'leased' AND d.lease_id = a.lease_id
            RETURNING d.id, d.state, d.available_at, d.installation_id, d.platform, d.token, d.leased_at
            """)
    /// Which of the acked ids that matched no lease name a delivery at all (those acks are stale).
    static let known = Query(
        name: "deliveries_known",
        sql: "SELECT id FROM deliveries WHERE id = ANY($1::text[])")
    /// A dead token takes the device's other queued pushes to that token with it; those queued to a token the
    /// device registered since stay.
    static let dropForDevices = Query(
        name: "deliveries_drop_for_devices",
        sql: """
            UPDATE deliveries AS d SET state = 'dead_token', finished_at = $3, detail = 'device token is dead'
            FROM unnest($1::text[], $2::text[]) AS dead(installation_id, token)
            WHERE d.installation_id = dead.installation_id AND d.token = dead.token AND d.state = 'queued'
            """)

    /// Drops the queued pushes of each device to the token named with it (a dead token's), stamped `now`.
    public static func dropQueued(
        to devices: [(installationId: String, token: String)], now: Date, on connection: PostgresConnection
    ) throws {
        guard !devices.isEmpty else { return }
        try connection.execute(
            dropForDevices,
            [PipelineArray(devices.map(\.installationId)), PipelineArray(devices.map(\.token)), now])
    }

    /// Applies acks (at most one per id; the last wins) and returns one result per distinct id, in order.
    public static func ack(
        _ acks: [DeliveryAck], now: Date, on connection: PostgresConnection
    ) throws
        -> [DeliveryAckResult]
    {
        var latest: [String: DeliveryAck] = [:]
        var order: [String] = []
        for ack in acks where latest.updateValue(ack, forKey: ack.id) == nil { order.append(ack.id) }
        let unique = order.map { latest[$0]! }
        return try connection.transaction { connection in
            let rows = try connection.query(
                ack,
                [
                    now, maxAttempts, PipelineArray(order), PipelineArray(unique.map(\.outcome.rawValue)),
                    PipelineArray(optional: unique.map(\.detail)),
                    PipelineArray(optional: unique.map { $0.retryAfterSeconds.map(String.init) }),
                    PipelineArray(unique.map(\.leaseId)),
                ])
            var results: [String: DeliveryAckResult] = [:]
            for row in rows {
                let state = try row.string("state")
                let id = try row.string("id")
                results[id] = DeliveryAckResult(
                    id: id, status: .ok, state: state,
                    availableAt: state == "queued" ? try row.date("available_at") : nil,
                    installationId: try row.string("installation_id"), platform: try row.string("platform"),
                    token: try row.string("token"), leasedAt: try row.decode(Date?.self, "leased_at"))
            }
            let missed = order.filter { results[$0] == nil }
            var stale: Set<String> = []
            if !missed.isEmpty {
                stale = Set(try connection.query(known, [PipelineArray(missed)]).map { try $0.string("id") })
            }
            return order.map {
                results[$0] ?? DeliveryAckResult(id: $0, status: stale.contains($0) ? .stale : .notLeased)
            }
        }
    }
}
