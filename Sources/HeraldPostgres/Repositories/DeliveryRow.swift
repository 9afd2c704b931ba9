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
        self.init(id: Self.id(for: delivery), delivery: delivery, eventSource: eventSource, eventId: eventId)
    }

    /// Wraps `delivery` under `id`, which is `id(for: delivery)` computed by the caller.
    public init(id: String, delivery: Delivery, eventSource: String?, eventId: String?) {
        self.id = id
        self.delivery = delivery
        self.eventSource = eventSource
        self.eventId = eventId
    }

    /// 32 hex digits of SHA-256 over the notification, the installation and the kind.
    public static func id(for delivery: Delivery) -> String {
        id(notificationId: delivery.notificationId, installationId: delivery.installationId, kind: delivery.kind)
    }

    /// `id(for:)` from the three fields it is derived from.
    public static func id(notificationId: String?, installationId: String, kind: Delivery.Kind) -> String {
        var seed: [UInt8] = []
        seed.reserveCapacity(
            (notificationId?.utf8.count ?? 0) + installationId.utf8.count + kind.rawValue.utf8.count + 2)
        seed.append(contentsOf: (notificationId ?? "").utf8)
        seed.append(0)
        seed.append(contentsOf: installationId.utf8)
        seed.append(0)
        seed.append(contentsOf: kind.rawValue.utf8)
        return SHA256.hexPrefix(seed, byteCount: 16)
    }
}
