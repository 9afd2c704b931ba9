/// The outcome of deciding one event: a decision per recipient, the queue rows, and the state to write.
public struct DecisionResult: Sendable, Hashable {
    public var decisions: [Decision] = []
    public var deliveries: [Delivery] = []
    public var changes = StateChanges()
    /// Digests this event sent because their window had closed before its timer fired, by notification id.
    public var caughtUpDigests: [String: DigestSummary] = [:]

    /// An empty result.
    public init() {}
}
