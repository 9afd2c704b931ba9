import Foundation

/// What closing a collapse window produced: the group's new state, the digest's outcome and queue rows.
public struct DigestResult: Sendable, Hashable {
    /// The group to store back (idle after a digest or an empty window).
    public var group: CollapseGroup
    /// The digest's outcome; `nil` when there was nothing to send (the window held only the first event).
    public var outcome: Outcome?
    public var detail: String?
    /// When the digest goes (deferred), or when to fire the timer again (early timer).
    public var until: Date?
    /// When the digest's push goes (`Outcome.deliverAt`).
    public var deliverAt: Date? = nil
    /// The digest's id, whenever there is a digest (an outcome), sent or not.
    public var notificationId: String?
    public var summary: DigestSummary?
    public var deliveries: [Delivery]
    /// Timers to arm (an early timer is re-armed for the real window end).
    public var digestTimers: [StateChanges.DigestTimer]
}
