import Foundation
import HeraldHTTP
import HeraldPostgres

/// A delivery as the relay publishes it to `herald.deliveries.<platform>`: the fields of a leased delivery of
/// `POST /v1/deliveries/claim`, without the lease (schema `RelayedDelivery` in openapi.yaml).
enum RelayedDelivery {
    /// The subject: `herald.deliveries.<platform>`.
    static func subject(platform: String) -> String {
        StreamSettings.deliveriesPrefix + "." + platform
    }

    /// The message for `lease`, de-duplicated by JetStream on the delivery id.
    @Sendable static func message(_ lease: DeliveryLease) -> OutgoingMessage {
        let body =
            (try? JSONCoders.encoder.encode(DeliveriesAPI.LeaseView(lease, withLease: false))).map { Array($0) } ?? []
        return OutgoingMessage(
            subject: subject(platform: lease.platform), body: body, messageId: lease.id,
            headers: [("Content-Type", "application/json"), ("Herald-Platform", lease.platform)])
    }
}
