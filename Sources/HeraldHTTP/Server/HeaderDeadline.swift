import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The time a connection has to send a request's headers: from when it opens, and again from each response on a
/// kept-alive connection. Authentication waits for the headers, so a client that sends them a byte at a time,
/// never finishing, would otherwise hold a connection (and its thread) for as long as it keeps the idle timeout
/// from firing; enough of them fill the connection limit. A watchdog thread shuts down the socket of each
/// connection past its deadline, and libmicrohttpd closes it.
final class HeaderDeadline: Sendable {
    private struct Waiting {
        var socket: Int32
        var since: ContinuousClock.Instant
    }

    private let timeout: Duration
    /// Connections waiting for a request's headers, by connection handle.
    private let waiting = Mutex<[UInt: Waiting]>([:])
    private let running = Atomic<Bool>(false)

    init(timeout: Duration) { self.timeout = timeout }

    /// Starts the watchdog; it looks four times per timeout, at least once a second.
    func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let pause = min(timeout / 4, .seconds(1))
        let thread = Thread { [self] in
            while running.load(ordering: .acquiring) {
                Thread.sleep(
                    forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
                cutLate(at: .now)
            }
        }
        thread.name = "http-header-deadline"
        thread.start()
    }

    /// Stops the watchdog (within one pause).
    func stop() { running.store(false, ordering: .releasing) }

    /// `connection`, on `socket`, now waits for a request's headers.
    func awaitHeaders(_ connection: UInt, socket: Int32) {
        guard socket >= 0 else { return }
        waiting.withLock { $0[connection] = Waiting(socket: socket, since: .now) }
    }

    /// `connection`'s request headers are complete (or it closed).
    func release(_ connection: UInt) {
        _ = waiting.withLock { $0.removeValue(forKey: connection) }
    }

    /// Shuts down every connection whose headers are late at `now`. The lock is held while shutting down, and a
    /// closing connection leaves the table under it before libmicrohttpd closes its socket, so a descriptor shut
    /// down here always still belongs to the late connection.
    func cutLate(at now: ContinuousClock.Instant) {
        waiting.withLock { table in
            for (connection, entry) in table where now - entry.since >= timeout {
                shutdown(entry.socket, Int32(SHUT_RDWR))
                table.removeValue(forKey: connection)
            }
        }
    }
}
