/// A stored decision's primary key: the event and the recipient.
public struct DecisionKey: Sendable, Hashable {
    public var eventSeq: Int64
    public var userId: String

    /// Creates a key.
    public init(eventSeq: Int64, userId: String) {
        self.eventSeq = eventSeq
        self.userId = userId
    }
}
