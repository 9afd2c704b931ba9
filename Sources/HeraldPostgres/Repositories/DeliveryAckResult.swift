import Foundation

/// What an ack did to one delivery.
public struct DeliveryAckResult: Sendable, Hashable {
    /// Whether the ack was applied.
    public enum Status: String, Sendable, Hashable {
        /// The ack held the delivery's current lease and was applied.
        case ok
        /// The delivery is no longer under the ack's lease (taken back, claimed again, or already acked): nothing
        /// changed.
        case stale
        /// No such delivery.
        case notLeased = "not_leased"
    }

    public var id: String
    public var status: Status
    /// The delivery's state afterwards (`sent`, `queued`, `failed`, `dead_token`, or `expired` for a retry whose device
    /// was lost or whose coalesce key got a newer push); `nil` unless `status` is `ok`.
    public var state: String?
    /// For a retry: when it becomes available again.
    public var availableAt: Date?
    /// For a dead token: the device that stops receiving.
    public var installationId: String?
    public var platform: String?
    public var token: String?
    /// When the lease the ack applied to began: a dead token was seen after it.
    public var leasedAt: Date?

    /// Creates a result.
    public init(
        id: String, status: Status, state: String? = nil, availableAt: Date? = nil, installationId: String? = nil,
        platform: String? = nil, token: String? = nil, leasedAt: Date? = nil
    ) {
        self.id = id
        self.status = status
        self.state = state
        self.availableAt = availableAt
        self.installationId = installationId
        self.platform = platform
        self.token = token
        self.leasedAt = leasedAt
    }
}
