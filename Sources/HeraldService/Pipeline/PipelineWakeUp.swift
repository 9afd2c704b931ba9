import HeraldSupport
import Synchronization

/// Wakes idle workers: a NOTIFY from ingest, the listener reconnecting, or shutdown. A generation counter makes a
/// wake-up that arrives while a worker is busy count: the worker compares generations before it sleeps.
final class PipelineWakeUp: Sendable {
    private let condition = MonotonicCondition()
    // Both only change while `condition` is locked; atomics make the class Sendable without unchecked claims.
    private let generation = Atomic<UInt64>(0)
    private let stopped = Atomic<Bool>(false)

    /// The current generation, to pass to `wait(since:timeout:)`.
    var current: UInt64 { generation.load(ordering: .acquiring) }

    /// Whether `stop()` was called.
    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Wakes every waiting worker.
    func notify() {
        condition.lock()
        generation.add(1, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes one waiting worker: a notification of new events needs one claim, not one per worker (the others
    /// would each open a transaction that finds nothing). A worker whose batch came back full wakes the next.
    func notifyOne() {
        condition.lock()
        generation.add(1, ordering: .releasing)
        condition.signal()
        condition.unlock()
    }

    /// Wakes every worker for good.
    func stop() {
        condition.lock()
        stopped.store(true, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }

    /// Sleeps until the generation moves past `seen`, `stop()`, or `timeout`.
    func wait(since seen: UInt64, timeout: Duration) {
        let deadline = MonotonicCondition.deadline(after: timeout)
        condition.lock()
        while current == seen && !isStopped {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }

    /// Sleeps until `stop()` or `timeout`, ignoring notifications (backoff after a failure).
    func pause(_ timeout: Duration) {
        let deadline = MonotonicCondition.deadline(after: timeout)
        condition.lock()
        while !isStopped {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }
}
