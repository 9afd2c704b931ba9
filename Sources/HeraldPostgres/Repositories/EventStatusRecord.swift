import Foundation

/// An event as the status endpoint shows it.
public struct EventStatusRecord: Sendable, Hashable {
    public var seq: Int64
    public var source: String
    public var id: String
    public var categoryId: String
    /// `pending` or `decided`.
    public var state: String
    public var acceptedAt: Date
    public var decidedAt: Date?
    public var recipientsDecided: Int
    /// The event's own outcome when it reached nobody for a reason of its own (`rejected.undecodable`).
    public var outcome: String? = nil
}
