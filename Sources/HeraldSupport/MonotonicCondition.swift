import Glibc

/// A mutex and condition variable whose timed waits run on the monotonic clock, so that a step of the wall clock
/// (NTP, an operator, a test run with a shifted clock) neither stalls a waiter nor makes it spin. Foundation's
/// `NSCondition.wait(until:)` takes a wall-clock date instead.
public final class MonotonicCondition: @unchecked Sendable {
    // @unchecked: the pthread objects are only touched through the functions below, which pthread makes safe to
    // call from any thread.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Wakes one waiter; call with the lock held.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter; call with the lock held.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// The monotonic instant `timeout` from now, for `wait(until:)`.
    public static func deadline(after timeout: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = timeout.components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(seconds)
        wholeSeconds += nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        return timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
    }

    /// Waits for a signal or `deadline` (from `deadline(after:)`), with the lock held; false when the deadline
    /// passed.
    public func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }
}
