import Foundation

/// What an ack did to one delivery.
public struct DeliveryAckResult: Sendable, Hashable {
    public var id: String
    /// The delivery's state afterwards (`sent`, `queued`, `failed`, `dead_token`), or `nil` when it was not
    /// leased (unknown id, lease expired and taken back, or already acked).
    public var state: String?
    /// For a retry: when it becomes available again.
    public var availableAt: Date?
    /// For a dead token: the device that stops receiving.
    public var installationId: String?
    public var platform: String?
    public var token: String?

    /// Creates a result.
    public init(
        id: String, state: String?, availableAt: Date? = nil, installationId: String? = nil, platform: String? = nil,
        token: String? = nil
    ) {
        self.id = id
        self.state = state
        self.availableAt = availableAt
        self.installationId = installationId
        self.platform = platform
        self.token = token
    }
}
