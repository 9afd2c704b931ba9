import Foundation

/// One of a user's recorded decisions with the event it was about, as "why didn't they get this?" lists them.
public struct UserDecisionRecord: Sendable, Hashable {
    /// The event's seq: the order of the list and the position a page ends at.
    public var eventSeq: Int64
    public var eventSource: String
    public var eventId: String
    public var categoryId: String
    /// The outcome code, e.g. `suppressed.preference`.
    public var outcome: String
    /// The outcome's qualifier, e.g. the preference's source or the mute's scope.
    public var detail: String?
    /// When the push goes (now, the end of quiet hours, or the digest time); nil when none will.
    public var deliverAt: Date?
    public var notificationId: String?
    /// How many device pushes were queued for the user.
    public var deliveries: Int
    public var decidedAt: Date
}
