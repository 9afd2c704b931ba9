import Synchronization

/// The acknowledgements of one round of asynchronous publishes, written by a libnats thread and read by the
/// publishing thread.
final class PublishLedger: Sendable {
    private struct Round {
        var acknowledged: Set<String> = []
        var failed = 0
    }

    private let round = Mutex(Round())

    /// Starts a new round.
    func reset() {
        round.withLock { $0 = Round() }
    }

    /// Records one publish outcome.
    func record(id: String, acknowledged: Bool) {
        round.withLock { round in
            if acknowledged {
                round.acknowledged.insert(id)
            } else {
                round.failed += 1
            }
        }
    }

    /// The ids acknowledged in this round so far.
    func acknowledged() -> Set<String> {
        round.withLock { $0.acknowledged }
    }
}
