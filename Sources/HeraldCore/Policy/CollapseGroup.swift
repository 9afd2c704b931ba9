import Foundation

/// Burst collapsing for one user and one collapse key, as a small state machine.
///
/// `idle` → first event → `open` (it went out at once) → more events within the window → `accumulating` →
/// window closes → one digest that replaces the first in place (same collapse id) → `idle`. Events held back by a
/// rate limit or a digest preference go straight to `accumulating`. The shell stores the struct, arms a timer when
/// told to (`scheduleDigest`) and calls `windowClosed(at:)` when it fires; a late timer is caught up by the next
/// event.
public struct CollapseGroup: Sendable, Hashable, Codable {
    /// Where the burst stands.
    public enum Phase: String, Sendable, Hashable, Codable {
        case idle
        case open
        case accumulating
    }

    /// What the shell must do after an input.
    public enum Action: Sendable, Hashable {
        /// Send this event now, with the group's collapse id.
        case sendFirst(collapseId: String)
        /// The event was folded and is the first to be: arm the close timer for `at`.
        case scheduleDigest(at: Date)
        /// The event was folded into a burst whose timer is already armed.
        case accumulated(until: Date)
        /// Send the digest now (window closed, or closed late and caught up by a new event).
        case sendDigest(DigestSummary)
        /// The timer fired early: re-arm it for `until`.
        case notYet(until: Date)
        /// Nothing to send.
        case nothing
    }

    /// How many distinct actors and latest items a group remembers.
    public static let maxActors = 50
    public static let maxItems = 5

    public var userId: String
    public var key: String
    public var collapseId: String
    public var phase: Phase
    public var windowEndsAt: Date?
    /// The event sent at once, or `nil` when the burst began held back.
    public var firstEventId: String?
    /// When the burst began: the instant its first event was decided. A digest names its burst's notifications by
    /// it (`DigestSummary.startedAt`). `nil` when idle, and for a burst stored before groups remembered it.
    public var startedAt: Date?
    public var folded: Int
    /// Distinct actors of the burst, oldest first, at most `maxActors`.
    public var actors: [CollapsedItem]
    public var latestItems: [CollapsedItem]
    /// The thread every event of the burst belongs to; nil when they have none or not all the same one. A check
    /// at window close (a thread mute) applies to the digest through it.
    public var thread: String?
    /// Whether the burst's events belong to different threads (or some to none).
    public var threadsDiffer = false
    /// The events of the burst decided at the instant it began (`startedAt`), its first included: the ones it knows
    /// as its own at that instant (`membership`). `nil` for a burst stored before groups remembered them.
    public var openedWith: [String]? = []
    /// How many of the burst's notifications a read covered while it was open. Its digest counts the others, and
    /// a burst read whole closes with none.
    public var read = 0

    /// An idle group for `key`, whose pushes go with `collapseId` (by default the key's).
    public init(userId: String, key: String, collapseId: String? = nil) {
        self.userId = userId
        self.key = key
        self.collapseId = collapseId ?? CollapseIdentifier.apns(for: key)
        self.phase = .idle
        self.windowEndsAt = nil
        self.firstEventId = nil
        self.folded = 0
        self.actors = []
        self.latestItems = []
    }

    /// Whether an event arriving at `now` would start a new burst (and so go out at once) rather than fold.
    public func startsBurst(at now: Date) -> Bool {
        switch phase {
        case .idle: return true
        case .open: return windowEndsAt.map { now >= $0 } ?? true
        case .accumulating: return false
        }
    }

    /// An event arrived that may go out at once if no burst is running. `now` is when it goes (the end of quiet
    /// hours, for a deferred one); `decidedAt` is when it was decided, by default the same.
    public mutating func eventArrived(
        _ item: CollapsedItem, window: TimeInterval, at now: Date, decidedAt: Date? = nil
    )
        -> Action
    {
        switch phase {
        case .idle:
            return open(with: item, window: window, at: now, decidedAt: decidedAt ?? now)
        case .open, .accumulating:
            guard let ends = windowEndsAt, now < ends else {
                if phase == .accumulating { return foldAndClose(item) }
                reset()
                return open(with: item, window: window, at: now, decidedAt: decidedAt ?? now)
            }
            return fold(item, until: ends, decidedAt: decidedAt ?? now)
        }
    }

    /// An event arrived that must not go out on its own (rate limited, or the user asked for a digest); `now` and
    /// `decidedAt` as for `eventArrived`.
    public mutating func eventHeldBack(
        _ item: CollapsedItem, window: TimeInterval, at now: Date, decidedAt: Date? = nil
    )
        -> Action
    {
        if phase != .idle, let ends = windowEndsAt {
            if now < ends { return fold(item, until: ends, decidedAt: decidedAt ?? now) }
            if phase == .accumulating { return foldAndClose(item) }
        }
        reset()
        phase = .open
        windowEndsAt = now + window
        startedAt = (decidedAt ?? now).inWholeMicroseconds
        return fold(item, until: now + window, decidedAt: decidedAt ?? now)
    }

    /// The close timer fired at `now`.
    public mutating func windowClosed(at now: Date) -> Action {
        guard phase != .idle, let ends = windowEndsAt else { return .nothing }
        if now < ends { return .notYet(until: ends) }
        if phase == .open {
            reset()
            return .nothing
        }
        let summary = self.summary
        reset()
        return summary.unread > 0 ? .sendDigest(summary) : .nothing
    }

    /// A read covered `reads`: counts those of this burst (`membership`). Returns whether it counted any, and so
    /// must be stored.
    public mutating func notificationsRead(_ reads: [ReadNotice.CollapsedRead]) -> Bool {
        guard phase != .idle, !reads.isEmpty, let membership else { return false }
        let ours = reads.filter(membership.contains)
        read += ours.count
        return !ours.isEmpty
    }

    /// Which notifications belong to the burst; `nil` when idle, or for a burst stored before groups remembered
    /// when it began. At that instant it knows the events it began with (`openedWith`); a burst stored before it
    /// remembered them knows its first and the ones it remembers (`latestItems`).
    public var membership: BurstMembership? {
        guard let startedAt else { return nil }
        let events: [String]
        if let openedWith {
            events = openedWith
        } else {
            events = ([firstEventId] + latestItems.map(\.eventId)).compactMap { $0 }
        }
        return BurstMembership(
            key: key, collapseId: collapseId, startedAt: startedAt,
            known: Set(events.map { NotificationIdentity.notificationId(eventId: $0, userId: userId) }))
    }

    /// The digest of the burst so far.
    public var summary: DigestSummary {
        let names = actors.reversed().map { $0.actorName ?? $0.actor ?? "" }.filter { !$0.isEmpty }
        return DigestSummary(
            key: key, collapseId: collapseId, count: folded + (firstEventId == nil ? 0 : 1),
            folded: folded,
            actorCount: actors.count, actorNames: Array(names.prefix(10)), latestItems: latestItems,
            threadId: threadsDiffer ? nil : thread,
            expiresAt: (latestItems + actors).map(\.expiresAt).max() ?? windowEndsAt ?? .distantPast,
            startedAt: startedAt, read: read, membership: membership)
    }

    private mutating func open(
        with item: CollapsedItem, window: TimeInterval, at now: Date, decidedAt: Date
    ) -> Action {
        phase = .open
        windowEndsAt = now + window
        startedAt = decidedAt.inWholeMicroseconds
        firstEventId = item.eventId
        openedWith = [item.eventId]
        remember(item)
        return .sendFirst(collapseId: collapseId)
    }

    private mutating func fold(_ item: CollapsedItem, until ends: Date, decidedAt: Date) -> Action {
        let wasOpen = phase == .open
        phase = .accumulating
        folded += 1
        if let startedAt, decidedAt.wholeMicrosecondsSince1970 == startedAt.wholeMicrosecondsSince1970 {
            openedWith?.append(item.eventId)
        }
        remember(item)
        return wasOpen ? .scheduleDigest(at: ends) : .accumulated(until: ends)
    }

    private mutating func foldAndClose(_ item: CollapsedItem) -> Action {
        folded += 1
        remember(item)
        let summary = self.summary
        reset()
        return .sendDigest(summary)
    }

    private mutating func remember(_ item: CollapsedItem) {
        if latestItems.isEmpty {
            thread = item.threadId
            threadsDiffer = false
        } else if item.threadId != thread {
            thread = nil
            threadsDiffer = true
        }
        latestItems.append(item)
        if latestItems.count > Self.maxItems {
            latestItems.removeFirst(latestItems.count - Self.maxItems)
        }
        let actorKey = item.actor ?? item.actorName
        guard let actorKey else { return }
        if let index = actors.firstIndex(where: { ($0.actor ?? $0.actorName) == actorKey }) {
            actors.remove(at: index)
        } else if actors.count >= Self.maxActors {
            actors.removeFirst()
        }
        actors.append(item)
    }

    private mutating func reset() {
        phase = .idle
        windowEndsAt = nil
        startedAt = nil
        openedWith = []
        firstEventId = nil
        folded = 0
        actors = []
        latestItems = []
        thread = nil
        threadsDiffer = false
        read = 0
    }

    enum CodingKeys: String, CodingKey {
        case key, phase, folded, actors, thread, read
        case threadsDiffer = "threads_differ"
        case userId = "user_id"
        case collapseId = "collapse_id"
        case windowEndsAt = "window_ends_at"
        case firstEventId = "first_event_id"
        case startedAt = "started_at"
        case openedWith = "opened_with"
        case latestItems = "latest_items"
    }
}

extension CollapseGroup {
    /// Decodes a stored group; one stored before groups remembered their thread has none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        userId = try c.decode(String.self, forKey: .userId)
        key = try c.decode(String.self, forKey: .key)
        collapseId = try c.decode(String.self, forKey: .collapseId)
        phase = try c.decode(Phase.self, forKey: .phase)
        windowEndsAt = try c.decodeIfPresent(Date.self, forKey: .windowEndsAt)
        firstEventId = try c.decodeIfPresent(String.self, forKey: .firstEventId)
        startedAt = try c.decodeIfPresent(Date.self, forKey: .startedAt)
        openedWith = try c.decodeIfPresent([String].self, forKey: .openedWith)
        folded = try c.decode(Int.self, forKey: .folded)
        actors = try c.decode([CollapsedItem].self, forKey: .actors)
        latestItems = try c.decode([CollapsedItem].self, forKey: .latestItems)
        thread = try c.decodeIfPresent(String.self, forKey: .thread)
        // Without the mark, a stored burst's events cannot be known to share a thread.
        threadsDiffer = try c.decodeIfPresent(Bool.self, forKey: .threadsDiffer) ?? !latestItems.isEmpty
        read = try c.decodeIfPresent(Int.self, forKey: .read) ?? 0
    }
}
