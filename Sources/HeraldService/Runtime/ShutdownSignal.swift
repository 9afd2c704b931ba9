import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where the signal handler writes the number of each shutdown signal; set once, before the handler is installed.
nonisolated(unsafe) private var shutdownPipeWriteEnd: Int32 = -1

/// The handler of SIGINT and SIGTERM: writes the signal's number to the pipe, which is all a handler may safely do.
private func recordShutdownSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(shutdownPipeWriteEnd, &byte, 1)
    errno = saved
}

/// Blocks the calling thread until SIGINT or SIGTERM arrives, and reports which one. The handler is in place when
/// `init` returns, so a signal that arrives at any moment after (while the service is still starting, say) is kept
/// and ends the wait at once; nothing discards it. Create it on the thread that runs the command (the main thread):
/// that thread is the one left to take the signals.
public final class ShutdownSignal: Sendable {
    private static let pipe: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { fatalError("cannot create the shutdown signal's pipe") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // The handler must never block: a full pipe already holds a signal.
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        shutdownPipeWriteEnd = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = recordShutdownSignal
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for number in [SIGINT, SIGTERM] { sigaction(number, &action, nil) }
        // A process started from a thread that blocks them (as a dispatch thread does) inherits that mask, and a
        // blocked signal would stay pending for good: this thread takes them (and one already pending arrives now).
        var shutdownSignals = sigset_t()
        sigemptyset(&shutdownSignals)
        sigaddset(&shutdownSignals, SIGINT)
        sigaddset(&shutdownSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &shutdownSignals, nil)
        return (ends[0], ends[1])
    }()

    private let first = Mutex<Int32?>(nil)

    /// Takes over SIGINT and SIGTERM (and ignores SIGPIPE, which a closed client socket would raise).
    public init() {
        signal(SIGPIPE, SIG_IGN)
        _ = Self.pipe
    }

    /// The first shutdown signal's number, if one arrived; does not wait.
    public var received: Int32? {
        first.withLock { first in
            if first == nil { first = Self.take(waiting: false) }
            return first
        }
    }

    /// Waits for the first shutdown signal and returns its number.
    public func wait() -> Int32 {
        if let number = received { return number }
        let number = Self.take(waiting: true) ?? SIGTERM
        return first.withLock { first in
            if first == nil { first = number }
            return first ?? number
        }
    }

    /// Reads one signal number from the pipe; without `waiting`, only when one is there already.
    private static func take(waiting: Bool) -> Int32? {
        var ready = pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)
        while true {
            let count = poll(&ready, 1, waiting ? -1 : 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            var byte: UInt8 = 0
            let read = Glibc.read(pipe.read, &byte, 1)
            if read < 0 && errno == EINTR { continue }
            return read == 1 ? Int32(byte) : nil
        }
    }
}
