import Foundation

/// Which notifications belong to a burst. An open burst counts the reads of its own by it
/// (`CollapseGroup.notificationsRead`), and an opened digest reads the notifications it summarises by it.
///
/// A notification belongs when it carries the burst's collapse id, its category is one the burst's group gathers,
/// and it was decided since the burst began. The instants compare in whole microseconds, as they are stored: a
/// notification's decision time comes back from its row so rounded, while a burst begun in this process keeps the
/// clock's finer digits.
///
/// A batch decides all its events at one instant, so the batch that began the burst may also have decided, at that
/// instant, the event that closed the burst before it (its timer was late, and the event caught its digest up). Of
/// the notifications decided at the instant the burst began, only those the burst knows (`known`: the events it began
/// with, `CollapseGroup.openedWith`) are its own.
public struct BurstMembership: Sendable, Hashable {
    /// The collapse group's key; it tells the categories the burst gathers (`Decider.groupKey(_:gathers:)`).
    public var key: String
    public var collapseId: String
    /// The instant the burst's first event was decided.
    public var startedAt: Date
    /// The notification ids the burst knows as its own. `nil` for a digest stored before digests recorded them:
    /// every notification decided at the instant the burst began then counts.
    public var known: Set<String>?

    /// Creates the membership of a burst.
    public init(key: String, collapseId: String, startedAt: Date, known: Set<String>?) {
        self.key = key
        self.collapseId = collapseId
        self.startedAt = startedAt
        self.known = known
    }

    /// Whether `notification` belongs to the burst.
    public func contains(_ notification: BurstNotification) -> Bool {
        guard notification.collapseId == collapseId, Decider.groupKey(key, gathers: notification.categoryId)
        else { return false }
        let decided = notification.decidedAt.wholeMicrosecondsSince1970
        let begins = startedAt.wholeMicrosecondsSince1970
        guard decided == begins else { return decided > begins }
        return known?.contains(notification.notificationId) ?? true
    }

    /// The burst's first `count` notifications among `candidates`, in the order they were decided (by event seq
    /// within one instant): what a digest of `count` events summarises.
    public func first(_ count: Int, of candidates: [BurstNotification]) -> [BurstNotification] {
        let ours = candidates.filter(contains).sorted {
            ($0.decidedAt.wholeMicrosecondsSince1970, $0.eventSeq) < (
                $1.decidedAt.wholeMicrosecondsSince1970, $1.eventSeq
            )
        }
        return Array(ours.prefix(max(0, count)))
    }
}

/// A notification as a burst knows its own: by collapse id, category and the instant it was decided (by its id at
/// the instant the burst began).
public struct BurstNotification: Sendable, Hashable {
    public var notificationId: String
    public var collapseId: String
    public var categoryId: String
    public var decidedAt: Date
    /// Its event's seq: the order of notifications decided at one instant.
    public var eventSeq: Int64
    /// The item it names, if any.
    public var itemId: String?

    /// Creates a notification of a burst.
    public init(
        notificationId: String, collapseId: String, categoryId: String, decidedAt: Date, eventSeq: Int64 = 0,
        itemId: String? = nil
    ) {
        self.notificationId = notificationId
        self.collapseId = collapseId
        self.categoryId = categoryId
        self.decidedAt = decidedAt
        self.eventSeq = eventSeq
        self.itemId = itemId
    }
}
