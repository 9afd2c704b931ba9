import Foundation
import HeraldPostgres
import Synchronization

/// Knows, cheaply, whether the backlog of undecided events has reached its bound: a count from the database at
/// most every quarter second, plus what this process accepted since.
final class BacklogMonitor: Sendable {
    private struct State {
        var value = 0
        var refreshedAt: ContinuousClock.Instant?
    }

    /// The bound; at or above it ingest answers 503.
    let limit: Int
    private let state = Mutex(State())
    private let refreshInterval: Duration

    init(limit: Int, refreshInterval: Duration = .milliseconds(250)) {
        self.limit = limit
        self.refreshInterval = refreshInterval
    }

    /// Whether the backlog is below the bound; refreshes the count on `connection` when it is stale.
    func admits(on connection: PostgresConnection) throws -> Bool {
        let now = ContinuousClock.now
        let stale = state.withLock { state in
            state.refreshedAt.map { now - $0 >= refreshInterval } ?? true
        }
        if stale {
            // Two index probes usually settle it; only a high bound is worth an exact (capped) count.
            var counted = try EventRepository.backlogUpperBound(on: connection)
            if counted >= limit { counted = try EventRepository.backlog(upTo: limit + 1, on: connection) }
            state.withLock { state in
                state.value = counted
                state.refreshedAt = now
            }
        }
        return state.withLock { $0.value } < limit
    }

    /// Counts events just accepted.
    func accepted(_ count: Int) {
        state.withLock { $0.value += count }
    }
}
