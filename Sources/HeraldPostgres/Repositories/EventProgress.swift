/// How far one claimed event got in a batch: decided completely, or one more page of its topic done.
public struct EventProgress: Sendable, Hashable {
    public var seq: Int64
    /// Whether every recipient is decided.
    public var done: Bool
    /// The last topic subscriber decided, when more pages remain.
    public var fanoutAfter: String?
    /// Recipients decided in this batch.
    public var recipients: Int
    /// The event's own outcome, when it reached nobody for a reason of its own (`rejected.undecodable`).
    public var outcome: String?

    /// Creates a progress record.
    public init(seq: Int64, done: Bool, fanoutAfter: String?, recipients: Int, outcome: String? = nil) {
        self.seq = seq
        self.done = done
        self.fanoutAfter = fanoutAfter
        self.recipients = recipients
        self.outcome = outcome
    }
}
