import Foundation
import HeraldCore

/// A push on its way into the queue: the engine's delivery plus its queue identity.
public struct DeliveryRow: Sendable, Hashable {
    /// Derived from (notification, device, kind): reprocessing yields the same id, so the queue refuses a copy.
    public var id: String
    public var delivery: Delivery
    /// The event it comes from, as (source, id); `nil` for digests and withdrawals.
    public var eventSource: String?
    public var eventId: String?

    /// Wraps `delivery`, deriving its id.
    public init(_ delivery: Delivery, eventSource: String?, eventId: String?) {
        self.id = Self.id(for: delivery)
        self.delivery = delivery
        self.eventSource = eventSource
        self.eventId = eventId
    }

    /// 32 hex digits of SHA-256 over the notification, the installation and the kind.
    public static func id(for delivery: Delivery) -> String {
        var seed: [UInt8] = []
        seed.reserveCapacity(
            (delivery.notificationId?.utf8.count ?? 0) + delivery.installationId.utf8.count
                + delivery.kind.rawValue.utf8.count + 2)
        seed.append(contentsOf: (delivery.notificationId ?? "").utf8)
        seed.append(0)
        seed.append(contentsOf: delivery.installationId.utf8)
        seed.append(0)
        seed.append(contentsOf: delivery.kind.rawValue.utf8)
        return SHA256.hexPrefix(seed, byteCount: 16)
    }
}
