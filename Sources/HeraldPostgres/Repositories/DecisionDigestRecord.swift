import Foundation
import HeraldCore

/// What a closed collapse window produced for one user: the digest's outcome and queue rows.
public struct DecisionDigestRecord: Sendable, Hashable {
    public var notificationId: String
    public var userId: String
    public var collapseKey: String
    public var categoryId: String
    public var outcome: String
    public var detail: String?
    public var deliverAt: Date?
    public var eventCount: Int?
    /// Of `eventCount`, the events held back into the digest; the rest is the burst's first, sent on its own.
    public var folded: Int?
    public var deliveryIds: [String]
    public var decidedAt: Date
    /// The collapse id the burst's pushes and the digest's carry.
    public var collapseId: String?
    /// Which notifications belong to the burst: with `eventCount` it names the notifications the digest
    /// summarises (an open of the digest reads them). `nil` when the group did not know when its burst began.
    public var burst: BurstMembership?

    /// Creates a digest record.
    public init(
        notificationId: String, userId: String, collapseKey: String, categoryId: String, outcome: String,
        detail: String?, deliverAt: Date?, eventCount: Int?, folded: Int? = nil, deliveryIds: [String],
        decidedAt: Date, collapseId: String? = nil, burst: BurstMembership? = nil
    ) {
        self.notificationId = notificationId
        self.userId = userId
        self.collapseKey = collapseKey
        self.categoryId = categoryId
        self.outcome = outcome
        self.detail = detail
        self.deliverAt = deliverAt
        self.eventCount = eventCount
        self.folded = folded
        self.deliveryIds = deliveryIds
        self.decidedAt = decidedAt
        self.collapseId = collapseId
        self.burst = burst
    }
}
