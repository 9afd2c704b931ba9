import Foundation

extension Process {
    /// Waits until the child has exited and its status is known, checking every 2 ms.
    ///
    /// Foundation's `waitUntilExit` spins a run loop whose wake-up depends on the wall clock agreeing with the
    /// monotonic one: when the wall clock is moved (an NTP step, or a test run with a shifted clock), it can sleep
    /// far past the child's exit. Herald never needs the run loop for this, only the exit, which Foundation's own
    /// child reaper records in `isRunning` whatever the clocks say.
    public func waitUntilExited() {
        while isRunning { usleep(2_000) }
    }

    /// `waitUntilExited` with a deadline: false when the child still runs after `timeout`.
    public func waitUntilExited(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            guard ContinuousClock.now < deadline else { return false }
            usleep(2_000)
        }
        return true
    }
}
