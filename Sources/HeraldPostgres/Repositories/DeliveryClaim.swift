/// What one claim did: the leased deliveries, plus the expired ones it dropped and the leases it took back.
public struct DeliveryClaim: Sendable {
    public var leased: [DeliveryLease]
    /// Platforms of deliveries dropped because they expired before anyone sent them.
    public var expiredPlatforms: [String]
    /// Platforms of deliveries whose lease ran out and that went back to the queue.
    public var leaseExpiredPlatforms: [String]
}
