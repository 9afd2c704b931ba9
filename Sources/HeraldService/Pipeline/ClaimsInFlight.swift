import Synchronization

/// The batches one process has claimed and not yet ended, so that the next claim can start after them.
///
/// Every claim walks the pending events in seq order and skips the rows other batches hold. The batches of this
/// process's other workers hold the lowest ones, and each skipped row costs the database a refused tuple lock.
/// A claim therefore starts after the highest seq in flight here (`herald_claim_events(batch, after)`, which still
/// looks below it when that finds less than a batch). What it would miss below are events a batch of this process
/// left pending (the next page of a topic, the recipient budget spent) or handed back (abandoned): after either,
/// claims walk from the start again until one has passed the lowest such seq. So that nothing left below by
/// another instance waits for the backlog to drain, every `fullWalkEvery`-th claim walks from the start too.
///
/// Otherwise a claim takes what it took before, the lowest pending seqs no batch holds, in order. The exception is
/// a row below `after` that no batch holds (one committed late with a lower seq, say): while more than a batch waits
/// above it, it waits for the next walk from the start.
final class ClaimsInFlight: Sendable {
    /// One claim every so many walks from the start however many batches are in flight.
    static let fullWalkEvery = 16

    /// A claim about to be made: where it starts (nil: from the start).
    struct Start: Equatable {
        var after: Int64?
        /// How many batches had left events behind when the claim started.
        var leftBehind: Int
    }

    private struct State {
        /// The seqs each open batch claimed, in order, by its connection.
        var open: [ObjectIdentifier: [Int64]] = [:]
        /// The lowest seq a batch of this process left pending or handed back, until a claim from the start has
        /// passed it.
        var leftBelow: Int64?
        /// How many batches left events behind, ever.
        var leftBehind = 0
        var claims = 0
    }

    private let state = Mutex(State())

    /// Where the claim of the batch on `connection` starts.
    func start(_ connection: ObjectIdentifier) -> Start {
        state.withLock { state in
            state.claims += 1
            state.open[connection] = nil
            let highest = state.open.values.compactMap(\.last).max()
            guard state.leftBelow == nil, state.claims % Self.fullWalkEvery != 0, let highest else {
                return Start(after: nil, leftBehind: state.leftBehind)
            }
            return Start(after: highest, leftBehind: state.leftBehind)
        }
    }

    /// Records what the batch on `connection` claimed from `start` (`seqs` in order; `batch` asked for).
    func claimed(_ connection: ObjectIdentifier, from start: Start, seqs: [Int64], batch: Int) {
        state.withLock { state in
            state.open[connection] = seqs
            // A walk from the start took every pending row no batch held, up to its last one (all of them when it
            // found less than a batch): what was left below that is taken, unless more was left behind since the
            // walk began (held then, so skipped).
            if start.after == nil, start.leftBehind == state.leftBehind, let left = state.leftBelow,
                seqs.count < batch || (seqs.last ?? .min) >= left
            {
                state.leftBelow = nil
            }
        }
    }

    /// The batch on `connection` committed, having marked `decided` decided; the rest of its claim stays pending.
    func committed(_ connection: ObjectIdentifier, decided: Set<Int64>) {
        end(connection) { seqs in seqs.first { !decided.contains($0) } }
    }

    /// The batch on `connection` was abandoned: its whole claim is pending again.
    func abandoned(_ connection: ObjectIdentifier) {
        end(connection) { $0.first }
    }

    private func end(_ connection: ObjectIdentifier, leftPending: ([Int64]) -> Int64?) {
        state.withLock { state in
            let seqs = state.open.removeValue(forKey: connection) ?? []
            guard let left = leftPending(seqs) else { return }
            state.leftBelow = min(state.leftBelow ?? left, left)
            state.leftBehind += 1
        }
    }
}
