import Foundation

/// A claimed delivery, leased to one consumer until `leasedUntil`.
public struct DeliveryLease: Sendable, Hashable {
    public var id: String
    public var notificationId: String?
    public var eventSource: String?
    public var eventId: String?
    public var userId: String
    public var installationId: String
    public var platform: String
    public var environment: String
    public var token: String
    public var kind: String
    /// The platform request headers as a JSON object.
    public var headersJSON: String
    public var body: String
    public var collapseId: String?
    public var priority: Int
    public var availableAt: Date
    public var expiresAt: Date
    public var leasedUntil: Date
    public var leaseId: String
    public var attempts: Int
}
