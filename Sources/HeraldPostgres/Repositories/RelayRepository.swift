import Foundation

/// The SQL of the NATS relay: its writes to the delivery queue after a round of publishing.
public enum RelayRepository {
    // Only rows this round still leases are touched: a lease that expired and went to another consumer is not
    // this relay's to settle.
    static let handedOff = Query(
        name: "deliveries_relayed",
        sql: """
            UPDATE deliveries
            SET state = 'sent', relayed_at = $1, finished_at = $1, leased_until = NULL, lease_id = NULL,
                detail = 'relayed to nats'
            WHERE id = ANY($2::text[]) AND state = 'leased' AND lease_id = $3
            """)
    // A publish the stream did not acknowledge reached no push service: the claim's attempt is given back, so that
    // a stream that is away for a while never uses up a delivery's attempts.
    static let released = Query(
        name: "deliveries_relay_released",
        sql: """
            UPDATE deliveries
            SET state = 'queued', leased_until = NULL, lease_id = NULL, finished_at = $3,
                attempts = greatest(attempts - 1, 0), detail = 'relay publish not acknowledged'
            WHERE id = ANY($1::text[]) AND state = 'leased' AND lease_id = $2
            """)

    /// Marks the acknowledged deliveries relayed and puts the others back in the queue, in one transaction.
    public static func settle(
        relayed: [String], unacknowledged: [String], leaseId: String, now: Date, on connection: PostgresConnection
    ) throws {
        try connection.transaction { connection in
            if !relayed.isEmpty { try connection.execute(handedOff, [now, PipelineArray(relayed), leaseId]) }
            if !unacknowledged.isEmpty {
                try connection.execute(released, [PipelineArray(unacknowledged), leaseId, now])
            }
        }
    }
}
