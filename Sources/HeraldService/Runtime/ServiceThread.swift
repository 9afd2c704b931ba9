import Dispatch
import Foundation
import HeraldSupport
import Synchronization

/// The dedicated OS threads a background part's loop runs on (its blocking C calls stay off Swift's cooperative
/// pool), and what the loop sleeps on between rounds: `start` runs the body on every thread, the body goes round
/// while `isRunning`, and `stop` wakes it and waits until every thread has returned.
///
/// Its wake-up counts generations: a loop reads `generation` before its work and passes it to `wait(since:timeout:)`,
/// so a `notify()` that arrives while the loop is busy still wakes it at once afterwards.
///
/// Threads that share a queue (the pipeline's workers) wake for work instead: each claim starts with `beginClaim()`,
/// and `waitForWork(timeout:)` sleeps through notifications that a claim started since has already covered, so one
/// notification sends one thread to the queue, not the one it woke plus every thread that was busy meanwhile.
final class ServiceThread: Sendable {
    private enum Phase {
        case idle
        case started
        case stopped
    }

    /// The first thread's name, for messages.
    let name: String
    private let threadNames: [String]
    private let condition = MonotonicCondition()
    // Both only change while `condition` is locked; atomics make the class Sendable without unchecked claims.
    private let generationCount = Atomic<UInt64>(0)
    /// The latest generation a claim started at: what was notified up to it is being looked at.
    private let claimedGeneration = Atomic<UInt64>(0)
    /// Wake-ups for work a claim saw but could not take (`recruit()`), each taken by one waiting thread.
    private let recruits = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let phase = Mutex(Phase.idle)
    private let finished = DispatchGroup()

    /// One thread named `name`.
    convenience init(name: String) {
        self.init(threadNames: [name])
    }

    /// One thread per name, sharing the loop's wake-up (e.g. the pipeline's workers).
    init(threadNames: [String]) {
        precondition(!threadNames.isEmpty, "a service thread needs at least one thread")
        self.threadNames = threadNames
        name = threadNames[0]
    }

    /// Runs `body` on each thread.
    func start(_ body: @escaping @Sendable () -> Void) {
        start { _ in body() }
    }

    /// Runs `body(index)` on each thread, `index` counting from 0. Once stopped, it starts nothing.
    func start(_ body: @escaping @Sendable (_ index: Int) -> Void) {
        let starts = phase.withLock { phase -> Bool in
            switch phase {
            case .idle:
                phase = .started
                // Entered before any thread runs, so a `stop()` racing this start still waits for them.
                for _ in threadNames { finished.enter() }
                return true
            case .started:
                preconditionFailure("\(name) started twice")
            case .stopped:
                return false
            }
        }
        guard starts else { return }
        for (index, threadName) in threadNames.enumerated() {
            let thread = Thread { [finished] in
                body(index)
                finished.leave()
            }
            thread.name = threadName
            thread.start()
        }
    }

    /// Runs `step` on the thread over and over until stopped, pausing for the duration it returns between runs, and
    /// for `firstPause` before the first. A step that throws hands its error to `recover`, which returns the pause
    /// before the next try (a back-off).
    func startRepeating(
        after firstPause: Duration = .zero, _ step: @escaping @Sendable () throws -> Duration,
        recover: @escaping @Sendable (any Error) -> Duration
    ) {
        start { [self] in
            if firstPause > .zero { pause(firstPause) }
            while isRunning {
                let pause: Duration
                do {
                    pause = try step()
                } catch {
                    pause = recover(error)
                }
                if pause > .zero { self.pause(pause) }
            }
        }
    }

    /// Whether the loop should go on: true until `stop()`.
    var isRunning: Bool { !stopped.load(ordering: .acquiring) }

    /// The wake-up generation now, to pass to `wait(since:timeout:)`.
    var generation: UInt64 { generationCount.load(ordering: .acquiring) }

    /// Wakes every waiting thread.
    func notify() {
        condition.lock()
        generationCount.add(1, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes one waiting thread: new work for one claim needs one thread, not all of them (the others would each
    /// look and find nothing). A thread that finds more than it can take wakes the next.
    func notifyOne() {
        condition.lock()
        generationCount.add(1, ordering: .releasing)
        condition.signal()
        condition.unlock()
    }

    /// Sleeps until the generation moves past `seen`, `stop()`, or `timeout`.
    func wait(since seen: UInt64, timeout: Duration) {
        let deadline = MonotonicCondition.deadline(after: timeout)
        condition.lock()
        while generation == seen && isRunning {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }

    /// Marks the start of a claim that sees everything committed before the notifications so far.
    func beginClaim() {
        claimedGeneration.max(generation, ordering: .releasing)
    }

    /// Wakes one waiting thread for work a claim saw but left (its batch was full); a claim started since does not
    /// cancel it, since that claim may be full as well.
    func recruit() {
        condition.lock()
        recruits.add(1, ordering: .releasing)
        condition.signal()
        condition.unlock()
    }

    /// Sleeps until a notification arrives that no claim has started since, a `recruit()`, `stop()`, or `timeout`.
    func waitForWork(timeout: Duration) {
        let deadline = MonotonicCondition.deadline(after: timeout)
        condition.lock()
        while isRunning {
            if recruits.load(ordering: .acquiring) > 0 {
                recruits.subtract(1, ordering: .releasing)
                break
            }
            if generation > claimedGeneration.load(ordering: .acquiring) { break }
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }

    /// Sleeps until `stop()` or `timeout`, ignoring notifications (a back-off, or the time between runs).
    func pause(_ timeout: Duration) {
        let deadline = MonotonicCondition.deadline(after: timeout)
        condition.lock()
        while isRunning {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }

    /// Asks the loop to finish, wakes it, and waits until every thread's body has returned. Safe to call more than
    /// once and before `start` (which then starts nothing); never from the loop itself, which would wait for itself.
    func stop() {
        phase.withLock { $0 = .stopped }
        condition.lock()
        stopped.store(true, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }
}
