import Foundation
import HeraldHTTP
import HeraldPostgres

extension DeliveriesAPI {
    /// The event a delivery comes from.
    struct EventReference: Encodable {
        var source: String
        var id: String
    }

    /// A leased delivery as a consumer receives it; without the lease (`lease_id`, `leased_until`, `attempts`), it
    /// is also the message the NATS relay publishes (schema `RelayedDelivery`).
    struct LeaseView: Encodable {
        var id: String
        var notificationId: String?
        var event: EventReference?
        var userId: String
        var installationId: String
        var platform: String
        var environment: String
        var token: String
        var kind: String
        var headers: HeraldHTTP.JSONValue
        var body: String
        var collapseId: String?
        var priority: Int
        var availableAt: Date
        var expiresAt: Date
        /// What the ack of this delivery must name.
        var leaseId: String?
        var leasedUntil: Date?
        var attempts: Int?

        init(_ lease: DeliveryLease, withLease: Bool = true) {
            id = lease.id
            notificationId = lease.notificationId
            if let source = lease.eventSource, let eventId = lease.eventId {
                event = EventReference(source: source, id: eventId)
            }
            userId = lease.userId
            installationId = lease.installationId
            platform = lease.platform
            environment = lease.environment
            token = lease.token
            kind = lease.kind
            headers = (try? HeraldHTTP.JSONValue(parsing: Array(lease.headersJSON.utf8))) ?? .object([:])
            body = lease.body
            collapseId = lease.collapseId
            priority = lease.priority
            availableAt = lease.availableAt
            expiresAt = lease.expiresAt
            if withLease {
                leaseId = lease.leaseId
                leasedUntil = lease.leasedUntil
                attempts = lease.attempts
            }
        }
    }

    struct ClaimView: Encodable {
        var leaseId: String
        var leasedUntil: Date
        var deliveries: [LeaseView]
    }

    struct AckResultView: Encodable {
        var id: String
        /// `ok`; `stale` when the ack's lease is no longer the delivery's (it ran out and was taken back or claimed
        /// again, or the delivery was already acked), so nothing changed; `not_leased` for an unknown delivery.
        var status: String
        /// The delivery's state after the ack.
        var state: String?
        var availableAt: Date?

        init(_ result: DeliveryAckResult) {
            id = result.id
            status = result.status.rawValue
            state = result.state
            availableAt = result.availableAt
        }
    }

    struct AckView: Encodable {
        var results: [AckResultView]
    }
}
