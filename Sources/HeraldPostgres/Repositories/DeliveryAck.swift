import Foundation

/// A consumer's report on one leased delivery.
public struct DeliveryAck: Sendable, Hashable {
    /// What happened to the push.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Accepted by the push service: done.
        case sent
        /// A transient failure: back to the queue after a backoff.
        case retry
        /// The push service says the token is gone: the device stops receiving.
        case deadToken = "dead_token"
    }

    public var id: String
    /// The lease the consumer holds, as its claim returned it; an ack for any other lease changes nothing.
    public var leaseId: String
    public var outcome: Outcome
    public var detail: String?
    /// For `retry`: wait at least this long (e.g. a `Retry-After`); else an exponential backoff.
    public var retryAfterSeconds: Int?

    /// Creates an ack.
    public init(
        id: String, leaseId: String, outcome: Outcome, detail: String? = nil, retryAfterSeconds: Int? = nil
    ) {
        self.id = id
        self.leaseId = leaseId
        self.outcome = outcome
        self.detail = detail
        self.retryAfterSeconds = retryAfterSeconds
    }
}
