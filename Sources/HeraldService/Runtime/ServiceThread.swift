import Foundation
import Synchronization

/// A long-running loop on a thread of its own (blocking C calls stay off the cooperative pool): `start` runs the
/// body, the body polls `isRunning`, and `stop` asks it to finish and waits until it has returned.
final class ServiceThread: Sendable {
    private let name: String
    private let running = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)

    init(name: String) {
        self.name = name
    }

    /// Runs `body` on a new thread.
    func start(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [finished] in
            body()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Whether the loop should go on.
    var isRunning: Bool { running.load(ordering: .relaxed) }

    /// Asks the loop to finish and waits until its body returned.
    func stop() {
        running.store(false, ordering: .relaxed)
        finished.wait()
    }

    /// Sleeps up to `seconds`, waking early once stopped.
    func pause(seconds: Double) {
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        while isRunning, ContinuousClock.now < end { Thread.sleep(forTimeInterval: 0.02) }
    }
}
