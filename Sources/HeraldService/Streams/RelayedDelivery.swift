import Foundation
import HeraldHTTP
import HeraldPostgres

/// A delivery as the relay publishes it to `herald.deliveries.<platform>`: the fields of a leased delivery of
/// `POST /v1/deliveries/claim`, without the lease (schema `RelayedDelivery` in openapi.yaml).
struct RelayedDelivery: Encodable {
    /// The event a delivery comes from.
    struct EventReference: Encodable {
        var source: String
        var id: String
    }

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

    init(_ lease: DeliveryLease) {
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
    }

    /// The subject: `herald.deliveries.<platform>`.
    static func subject(platform: String) -> String {
        StreamSettings.deliveriesPrefix + "." + platform
    }

    /// The message for `lease`, de-duplicated by JetStream on the delivery id.
    @Sendable static func message(_ lease: DeliveryLease) -> OutgoingMessage {
        let body = (try? JSONCoders.encoder.encode(RelayedDelivery(lease))).map { Array($0) } ?? []
        return OutgoingMessage(
            subject: subject(platform: lease.platform), body: body, messageId: lease.id,
            headers: [("Content-Type", "application/json"), ("Herald-Platform", lease.platform)])
    }
}
