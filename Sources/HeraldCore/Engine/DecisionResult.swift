import Foundation

/// The outcome of deciding one event: a decision per recipient, the queue rows, and the state to write.
public struct DecisionResult: Sendable, Hashable {
    public var decisions: [Decision] = []
    public var deliveries: [Delivery] = []
    public var changes = StateChanges()
    /// Digests this event sent because their window had closed before its timer fired.
    public var caughtUpDigests: [CaughtUpDigest] = []

    /// An empty result.
    public init() {}
}

/// A digest a new event sent because the burst's window had closed before its timer fired.
public struct CaughtUpDigest: Sendable, Hashable {
    public var notificationId: String
    public var summary: DigestSummary
    public var outcome: Outcome
    /// When its push goes.
    public var deliverAt: Date?
}
