import Foundation
import HeraldCore
import HeraldPostgres

@testable import HeraldService

/// A `DecisionStore` over plain Swift collections, so the batch processor, the reads and the recipient book are
/// tested without PostgreSQL. It is one connection: one batch at a time (a second `openBatch` before the first
/// ends throws, so a claimed event is never claimed twice), whose marked reads reach the tables only when it
/// commits; abandoning drops them and leaves the claimed events undecided for the next batch. With one batch in
/// flight there is no one to lock out, so `lock` is accepted and changes nothing.
final class InMemoryDecisionStore: DecisionStore {
    /// A stored event and how far the pipeline got with it.
    struct StoredEvent: Sendable, Hashable {
        var claim: EventClaim
        var decided = false
        var decidedAt: Date?
        var outcome: String?
    }

    /// Everything the store holds, the state PostgreSQL keeps in its tables.
    struct Tables {
        var events: [StoredEvent] = []
        var timers: [RecipientStateWrite.Key: TimerRecord] = [:]
        var profiles: [String: UserProfile] = [:]
        var preferences: [String: [String: PreferenceSetting]] = [:]
        var mutes: [String: [Mute]] = [:]
        /// Devices by user, inactive ones included.
        var devices: [String: [Device]] = [:]
        var subscriptions: [String: Set<String>] = [:]
        var categories: [String: HeraldCore.Category] = [:]
        var unread: [String: Int] = [:]
        var buckets: [String: [String: TokenBucket]] = [:]
        var groups: [String: [String: CollapseGroup]] = [:]
        /// Silent budgets by installation, with their owner.
        var budgets: [String: (userId: String, budget: SilentBudget)] = [:]
        var feedPositions: [String: Int64] = [:]
        var dismissalStreaks: [String: [String: Int]] = [:]
        /// Decisions in the order they were written.
        var decisions: [DecisionRecord] = []
        var digests: [DecisionDigestRecord] = []
        /// The delivery queue in the order rows were added.
        var deliveries: [DeliveryRow] = []
        /// Queue rows that ended unsent, by id, with the reason.
        var ended: [String: String] = [:]
    }

    /// What the open batch holds until it ends.
    private struct OpenBatch {
        /// Reads marked by the batch, by decision.
        var reads: [DecisionKey: Date] = [:]
    }

    /// A store call the store refuses, as a failing connection would.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var tables = Tables()
    private var batch: OpenBatch?
    /// Keeps the tables as they are and throws at the next commit, as a connection lost before COMMIT.
    var failNextCommit = false

    /// An empty store.
    init() {}

    /// Whether a batch is open (claimed, not yet committed or abandoned).
    var isOpen: Bool { batch != nil }

    func openBatch(events: Int, timers: Int, now: Date) throws -> (claims: [EventClaim], dueTimers: [TimerRecord]) {
        guard batch == nil else { throw Failure(description: "a batch is already open on this store") }
        let claims = tables.events.filter { !$0.decided }.sorted { $0.claim.seq < $1.claim.seq }.prefix(events)
            .map(\.claim)
        batch = OpenBatch()
        let due = tables.timers.values.filter { $0.dueAt <= now }.sorted(by: Self.dueOrder).prefix(timers)
        return (claims, Array(due))
    }

    func topicPages(_ requests: [(topic: String, after: String)], limit: Int) throws -> [[String]] {
        requests.map { request in
            let members = tables.subscriptions[request.topic] ?? []
            let later = members.filter { request.after.utf8.lexicographicallyPrecedes($0.utf8) }
            return Array(later.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.prefix(limit))
        }
    }

    func recipients(_ userIds: [String], now: Date, lock: Bool) throws -> RecipientStateSnapshot {
        var snapshot = RecipientStateSnapshot()
        let known = Set(userIds).filter { tables.profiles[$0] != nil }
        for userId in known {
            snapshot.profiles[userId] = tables.profiles[userId]
            snapshot.preferences[userId] = tables.preferences[userId]
            let running = (tables.mutes[userId] ?? []).filter { $0.until.map { $0 > now } ?? true }
            if !running.isEmpty { snapshot.mutes[userId] = running }
            let active = (tables.devices[userId] ?? []).filter(\.active).sorted {
                $0.installationId.utf8.lexicographicallyPrecedes($1.installationId.utf8)
            }
            if !active.isEmpty { snapshot.devices[userId] = active }
            snapshot.unread[userId] = tables.unread[userId]
            snapshot.buckets[userId] = tables.buckets[userId]
            snapshot.groups[userId] = tables.groups[userId]
            snapshot.feedPositions[userId] = tables.feedPositions[userId]
            let streaks = (tables.dismissalStreaks[userId] ?? [:]).filter { $0.value > 0 }
            if !streaks.isEmpty { snapshot.dismissalStreaks[userId] = streaks }
        }
        for (installation, owned) in tables.budgets where known.contains(owned.userId) {
            snapshot.budgets[installation] = owned.budget
        }
        snapshot.dueTimers = tables.timers.values.filter { known.contains($0.userId) && $0.dueAt <= now }
            .sorted(by: Self.dueOrder)
        return snapshot
    }

    func categories(_ ids: [String]) throws -> [String: HeraldCore.Category] {
        tables.categories.filter { ids.contains($0.key) }
    }

    func readCandidates(for scope: ReadScope, sharing collapseIds: [String]) throws -> [ReadCandidate<DecisionKey>] {
        let pending = batch?.reads ?? [:]
        let unread = tables.decisions.filter { decision in
            decision.userId == scope.userId && decision.notificationId != nil && decision.readAt == nil
                && pending[Self.key(of: decision)] == nil
        }
        let named = unread.filter { decision in
            decision.itemId.map(scope.itemIds.contains) == true
                || (decision.threadId != nil && decision.threadId == scope.threadId)
                || decision.notificationId.map(scope.notificationIds.contains) == true
        }
        let sharing = Set(named.compactMap(\.collapseId) + collapseIds)
        let namedKeys = Set(named.map(Self.key(of:)))
        return unread.filter { namedKeys.contains(Self.key(of: $0)) || $0.collapseId.map(sharing.contains) == true }
            .sorted { $0.eventSeq < $1.eventSeq }
            .map { decision in
                ReadCandidate(
                    key: Self.key(of: decision), notificationId: decision.notificationId, itemId: decision.itemId,
                    threadId: decision.threadId, collapseId: decision.collapseId, countsUnread: decision.countsUnread,
                    isRead: false)
            }
    }

    func markRead(_ keys: [DecisionKey], at now: Date) throws {
        var open = batch ?? OpenBatch()
        for key in keys { open.reads[key] = now }
        batch = open
    }

    func commit(_ output: BatchOutput, book: RecipientBook, now: Date) throws {
        if failNextCommit {
            failNextCommit = false
            throw Failure(description: "the connection was lost before the commit")
        }
        var next = tables
        try next.apply(output, book: book, reads: batch?.reads ?? [:], now: now)
        tables = next
        batch = nil
    }

    func abandon() {
        batch = nil
    }

    /// The primary key of a stored decision.
    static func key(of decision: DecisionRecord) -> DecisionKey {
        DecisionKey(eventSeq: decision.eventSeq, userId: decision.userId)
    }

    /// Due timers in the order the claim and the recipients' load return them.
    private static func dueOrder(_ a: TimerRecord, _ b: TimerRecord) -> Bool {
        (a.dueAt, a.userId, a.key) < (b.dueAt, b.userId, b.key)
    }
}
