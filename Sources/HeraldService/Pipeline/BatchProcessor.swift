import Foundation
import HeraldCore
import HeraldPostgres

/// Decides one batch of undecided events and due collapse timers in ONE transaction of a `DecisionStore`: claim,
/// lock and load the recipients' state, run the engine, write decisions, deliveries, state, timers and progress,
/// commit.
/// A crash anywhere before the commit leaves no trace and hands the events to the next worker; after it, the events
/// are decided. That is what makes every accepted event decided exactly once.
struct BatchProcessor: Sendable {
    let decider: Decider
    let limits: BatchLimits

    /// One event of the batch with its recipients for this batch.
    struct Work {
        var claim: EventClaim
        /// The claimed event; nil when its stored document does not decode.
        var event: HeraldCore.Event?
        var recipients: [String]
        var progress: EventProgress

        /// Whether the stored document did not decode, asked without copying the event out.
        var isUndecodable: Bool {
            if case .none = event { return true }
            return false
        }
    }

    /// Runs one batch at `now` on `store`; returns what it did (an empty report when there was nothing to do).
    func run(on store: some DecisionStore, now: Date) throws -> BatchReport {
        do {
            return try runTransaction(on: store, now: now)
        } catch {
            store.abandon()
            throw error
        }
    }

    private func runTransaction(on store: some DecisionStore, now: Date) throws -> BatchReport {
        let (claims, dueTimers) = try store.openBatch(events: limits.events, timers: limits.timers, now: now)
        var report = BatchReport()
        report.full = claims.count >= limits.events || dueTimers.count >= limits.timers
        guard !claims.isEmpty || !dueTimers.isEmpty else {
            // Nothing to write: the commit is a lone COMMIT.
            try store.commit(BatchOutput(), book: RecipientBook(RecipientStateSnapshot()), now: now)
            return report
        }
        let work = try plan(claims, on: store)
        var userIds = Set(dueTimers.map(\.userId))
        for index in work.indices { userIds.formUnion(work[index].recipients) }
        // The categories of the events and of the timers seen due travel with the recipients' state; a timer that
        // came due since the claim (read again under its user's lock) may need one more.
        let categoryIds = Set(work.indices.compactMap { work[$0].event?.category } + dueTimers.map(\.categoryId))
        let (snapshot, found) = try store.recipients(
            Array(userIds), categories: Array(categoryIds), now: now, lock: true)
        let missing = Set(snapshot.dueTimers.map(\.categoryId)).subtracting(categoryIds)
        let categories = missing.isEmpty ? found : found.merging(try store.categories(Array(missing))) { $1 }

        var book = RecipientBook(snapshot)
        var output = BatchOutput()
        fireTimers(snapshot.dueTimers, categories: categories, book: &book, output: &output, now: now)
        // Timers of users that no longer exist would stay due forever.
        output.firedTimers += dueTimers.filter { !book.knows($0.userId) }
        // Through the buffer: each item is read in place, not copied with the event and the recipients it holds.
        try work.withUnsafeBufferPointer { work in
            for index in work.indices {
                try decide(work[index], categories: categories, book: &book, output: &output, store: store, now: now)
            }
        }
        try store.commit(output, book: book, now: now)

        report.events = work.count
        report.eventsDone = work.indices.reduce(0) { $0 + (work[$1].progress.done ? 1 : 0) }
        // An event with subscribers left, or one the recipient budget left out, waits for the next batch.
        report.full = report.full || report.eventsDone < claims.count
        report.timers = snapshot.dueTimers.count
        report.outcomes = output.outcomeCounts
        report.undecodable = work.indices.filter { work[$0].isUndecodable }.map { work[$0].claim }
        report.queued = output.queuedCounts
        return report
    }

    /// Decodes the claimed events and picks their recipients for this batch (`FanoutPage`); stops adding events
    /// once the recipient budget is spent.
    private func plan(_ claims: [EventClaim], on store: some DecisionStore) throws -> [Work] {
        let stored = claims.map { EventDocument.decode(Array($0.document.utf8)) }
        var topicRequests: [(topic: String, after: String)] = []
        var topicIndex: [Int: Int] = [:]
        for (index, event) in stored.enumerated() {
            guard let event, let topic = FanoutPage.topic(of: event) else { continue }
            topicIndex[index] = topicRequests.count
            topicRequests.append((topic, claims[index].fanoutAfter ?? ""))
        }
        let pages = try store.topicPages(topicRequests, limit: limits.topicPage)
        var work: [Work] = []
        var budget = limits.recipients
        for (index, claim) in claims.enumerated() {
            guard let event = stored[index] else {
                work.append(
                    Work(
                        claim: claim, event: nil, recipients: [],
                        progress: EventProgress(
                            seq: claim.seq, done: true, fanoutAfter: nil, recipients: 0,
                            outcome: Outcome.rejectedUndecodable.rawValue)))
                continue
            }
            let page = FanoutPage(
                named: event.recipients.userIds, subscribers: topicIndex[index].map { pages[$0] } ?? [],
                firstPage: claim.fanoutAfter == nil, pageSize: limits.topicPage)
            if !work.isEmpty, page.recipients.count > budget { break }
            budget -= page.recipients.count
            work.append(
                Work(
                    claim: claim, event: event, recipients: page.recipients,
                    progress: EventProgress(
                        seq: claim.seq, done: page.isLast, fanoutAfter: page.nextAfter,
                        recipients: page.recipients.count)))
        }
        return work
    }
}
