/// The outcome of deciding one event: a decision per recipient, the queue rows, and the state to write.
public struct DecisionResult: Sendable, Hashable {
    public var decisions: [Decision] = []
    public var deliveries: [Delivery] = []
    public var changes = StateChanges()

    /// An empty result.
    public init() {}
}
