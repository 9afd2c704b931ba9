import Foundation

/// What the inbox did with one event.
public enum EventIngestOutcome: Sendable, Hashable {
    /// Stored now.
    case accepted(seq: Int64, acceptedAt: Date)
    /// Stored before with the same body: the original acceptance.
    case duplicate(seq: Int64, acceptedAt: Date)
    /// Stored before with a different body under the same (source, id).
    case conflict(acceptedAt: Date)
    /// No category has this id.
    case unknownCategory
    /// The category is archived and takes no new events.
    case archivedCategory
}
