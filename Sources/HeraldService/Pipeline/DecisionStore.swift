import Foundation
import HeraldCore
import HeraldPostgres

/// Where the batch processor reads and writes one batch: open it (claim events and due timers), read topic pages,
/// the recipients' state, the categories and a read's candidates, then write the outcome and commit, or abandon.
/// `PostgresDecisionStore` is the production one; each call is at most one round trip, so the processor's round
/// trips per batch are the calls it makes here.
protocol DecisionStore {
    /// Opens the batch and claims up to `events` undecided events in acceptance order (no other batch takes them
    /// until this one commits or is abandoned) and up to `timers` collapse timers due at `now`, read unlocked (the
    /// ones that fire are re-read under their user's lock by `recipients`); one round trip.
    func openBatch(events: Int, timers: Int, now: Date) throws -> (claims: [EventClaim], dueTimers: [TimerRecord])

    /// One page of each topic's subscribers after its cursor, in user id order; one round trip for all topics,
    /// none for no topics.
    func topicPages(_ requests: [(topic: String, after: String)], limit: Int) throws -> [[String]]

    /// The state of `userIds` as of `now` (their due timers included); with `lock`, the users stay locked until the
    /// batch ends. Unknown users are absent from the snapshot.
    func recipients(_ userIds: [String], now: Date, lock: Bool) throws -> RecipientStateSnapshot

    /// The categories `ids` that exist, archived ones included (the engine rejects their events).
    func categories(_ ids: [String]) throws -> [String: HeraldCore.Category]

    /// `recipients` and `categories` together, in one round trip where the store can.
    func recipients(
        _ userIds: [String], categories ids: [String], now: Date, lock: Bool
    ) throws -> (snapshot: RecipientStateSnapshot, categories: [String: HeraldCore.Category])

    /// The unread stored notifications of `scope`'s user with one of its items, its thread or one of its
    /// notification ids, and the unread ones sharing a collapse id with them or with `collapseIds`, oldest first.
    func readCandidates(for scope: ReadScope, sharing collapseIds: [String]) throws -> [ReadCandidate<DecisionKey>]

    /// Marks the stored decisions `keys` read at `now`; nothing to do for no keys.
    func markRead(_ keys: [DecisionKey], at now: Date) throws

    /// Writes what the batch decided (`book` holds the recipients' new state and the timers to arm), marks the
    /// claimed events' progress and commits.
    func commit(_ output: BatchOutput, book: RecipientBook, now: Date) throws

    /// Rolls back whatever the batch did; its claimed events go back to the queue.
    func abandon()
}

extension DecisionStore {
    func recipients(
        _ userIds: [String], categories ids: [String], now: Date, lock: Bool
    ) throws -> (snapshot: RecipientStateSnapshot, categories: [String: HeraldCore.Category]) {
        (try recipients(userIds, now: now, lock: lock), try categories(ids))
    }
}
