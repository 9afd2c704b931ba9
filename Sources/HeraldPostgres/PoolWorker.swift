import Dispatch
import Synchronization

/// One unit of work for a pool connection: `run` on success of getting a connection, else `fail`.
struct PoolJob: Sendable {
    let run: @Sendable (PostgresConnection) -> Void
    let fail: @Sendable (PostgresError) -> Void
    /// Set when the caller may give up waiting: exactly one of the worker (taking it) and the caller (abandoning
    /// it) wins, so work either runs whole or never starts.
    var ticket: PoolTicket? = nil
}

/// Who owns a queued job that its caller may abandon: still waiting, taken by a worker, or abandoned.
final class PoolTicket: Sendable {
    private let state = Atomic<Int>(0)
    private static let waiting = 0
    private static let taken = 1
    private static let abandoned = 2

    /// The worker's claim; false when the caller gave up first.
    func take() -> Bool {
        state.compareExchange(expected: Self.waiting, desired: Self.taken, ordering: .acquiringAndReleasing)
            .exchanged
    }

    /// The caller's claim; false when a worker already runs the job (the caller must wait for it).
    func abandon() -> Bool {
        state.compareExchange(expected: Self.waiting, desired: Self.abandoned, ordering: .acquiringAndReleasing)
            .exchanged
    }
}

/// The state pool threads and callers share: the job queue, the wake-up semaphore and usage counters.
final class PoolShared: Sendable {
    private struct Queue {
        // Two stacks make a FIFO queue with O(1) amortised operations.
        var inbox: [PoolJob] = []
        var outbox: [PoolJob] = []
        var closed = false
        var count: Int { inbox.count + outbox.count }

        mutating func pop() -> PoolJob? {
            if outbox.isEmpty {
                outbox = inbox.reversed()
                inbox.removeAll()
            }
            return outbox.popLast()
        }
    }

    let configuration: PostgresPool.Configuration
    private let queue = Mutex(Queue())
    /// One signal per queued job, plus one per worker when closing.
    let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    let busy = Atomic<Int>(0)
    let acquired = Atomic<Int>(0)
    let reconnects = Atomic<Int>(0)

    init(configuration: PostgresPool.Configuration) {
        self.configuration = configuration
    }

    func submit(_ job: PoolJob) {
        let accepted = queue.withLock { queue in
            guard !queue.closed else { return false }
            queue.inbox.append(job)
            return true
        }
        guard accepted else {
            job.fail(PostgresError(kind: .poolClosed, message: "the connection pool is closed"))
            return
        }
        wakeUp.signal()
    }

    /// The next job, or `nil` when the wake-up was for closing and the queue is drained.
    func next() -> (job: PoolJob?, closed: Bool) {
        queue.withLock { queue in (queue.pop(), queue.closed) }
    }

    func workerFinished() { finished.signal() }

    func close(waitForWorkers: Bool) {
        let first = queue.withLock { queue in
            defer { queue.closed = true }
            return !queue.closed
        }
        guard first else { return }
        for _ in 0..<configuration.size { wakeUp.signal() }
        guard waitForWorkers else { return }
        for _ in 0..<configuration.size { finished.wait() }
    }

    func stats() -> PostgresPool.Stats {
        PostgresPool.Stats(
            size: configuration.size, busy: busy.load(ordering: .relaxed), waiting: queue.withLock { $0.count },
            totalAcquired: acquired.load(ordering: .relaxed), reconnects: reconnects.load(ordering: .relaxed))
    }
}

/// The loop of one pool thread: take a job, make sure the connection is alive, run the job, clean up.
final class PoolWorker {
    private let shared: PoolShared
    private let connection: PostgresConnection
    private var healthy = true
    private var delay: Duration
    private var nextAttempt = ContinuousClock.now

    init(shared: PoolShared, connection: PostgresConnection) {
        self.shared = shared
        self.connection = connection
        self.delay = shared.configuration.reconnectDelay
    }

    func run() {
        while true {
            if healthy {
                shared.wakeUp.wait()
            } else if shared.wakeUp.wait(timeout: dispatchTime(of: nextAttempt)) == .timedOut {
                // Idle and disconnected: reconnect in the background so the next caller finds a live session.
                _ = ensureConnected()
                continue
            }
            let (job, closed) = shared.next()
            if let job {
                perform(job)
            } else if closed {
                break
            }
        }
        shared.workerFinished()
    }

    private func perform(_ job: PoolJob) {
        if let ticket = job.ticket, !ticket.take() { return }
        guard ensureConnected() else {
            job.fail(PostgresError(kind: .connectionLost, message: "the database is not reachable"))
            return
        }
        shared.busy.add(1, ordering: .relaxed)
        shared.acquired.add(1, ordering: .relaxed)
        job.run(connection)
        shared.busy.subtract(1, ordering: .relaxed)
        if connection.needsReset {
            healthy = false
        } else {
            connection.rollbackIfNeeded()
        }
    }

    /// Whether the connection is usable, reconnecting when it is not and the backoff allows an attempt now.
    private func ensureConnected() -> Bool {
        if healthy && connection.isAliveWhenIdle() { return true }
        healthy = false
        guard ContinuousClock.now >= nextAttempt else { return false }
        do {
            try connection.reset()
            healthy = true
            delay = shared.configuration.reconnectDelay
            shared.reconnects.add(1, ordering: .relaxed)
            return true
        } catch {
            nextAttempt = ContinuousClock.now + delay
            delay = min(delay * 2, shared.configuration.maximumReconnectDelay)
            return false
        }
    }

    private func dispatchTime(of instant: ContinuousClock.Instant) -> DispatchTime {
        let remaining = ContinuousClock.now.duration(to: instant)
        let nanoseconds = max(
            0, remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000)
        return .now() + .nanoseconds(Int(nanoseconds))
    }
}
