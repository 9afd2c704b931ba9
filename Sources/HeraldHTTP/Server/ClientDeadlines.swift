import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How long a client may take to send a request. Authentication waits for the headers and a handler for the whole
/// body, so a client that sends either a byte at a time would otherwise hold a connection (and its thread, and
/// the body so far) for as long as it keeps the idle timeout from firing; enough of them fill the connection limit.
/// - The headers must be complete within the header timeout: from when the connection opens, and again from each
///   response on a kept-alive connection.
/// - A body that takes longer than the header timeout must have come at the minimum body rate on average since its
///   headers ended, the header timeout not counted (a large import over a slow link goes on; a trickle does not).
///
/// A watchdog thread shuts down the socket of each connection past its deadline, and libmicrohttpd closes it.
final class ClientDeadlines: Sendable {
    private struct Waiting {
        var socket: Int32
        var since: ContinuousClock.Instant
        /// Body bytes received so far; nil while the headers are awaited.
        var bodyBytes: Int?
    }

    private let timeout: Duration
    private let minimumBodyRate: Int
    /// Connections waiting for a request's headers or body, by connection handle.
    private let waiting = Mutex<[UInt: Waiting]>([:])
    private let running = Atomic<Bool>(false)

    /// Deadlines with `timeout` for the headers (and as a body's grace), and `minimumBodyRate` bytes per second
    /// for bodies (0: bodies are bounded by the idle timeout alone).
    init(timeout: Duration, minimumBodyRate: Int) {
        self.timeout = timeout
        self.minimumBodyRate = minimumBodyRate
    }

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
        thread.name = "http-client-deadlines"
        thread.start()
    }

    /// Stops the watchdog (within one pause).
    func stop() { running.store(false, ordering: .releasing) }

    /// `connection`, on `socket`, now waits for a request's headers.
    func awaitHeaders(_ connection: UInt, socket: Int32) {
        guard socket >= 0 else { return }
        waiting.withLock { $0[connection] = Waiting(socket: socket, since: .now, bodyBytes: nil) }
    }

    /// `connection`'s request headers are complete, and its body (if any) is awaited.
    func awaitBody(_ connection: UInt, socket: Int32) {
        guard socket >= 0, minimumBodyRate > 0 else { return release(connection) }
        waiting.withLock { $0[connection] = Waiting(socket: socket, since: .now, bodyBytes: 0) }
    }

    /// `count` more body bytes came in on `connection`.
    func received(_ count: Int, on connection: UInt) {
        waiting.withLock { table in
            if let bytes = table[connection]?.bodyBytes { table[connection]?.bodyBytes = bytes + count }
        }
    }

    /// `connection` waits for nothing from its client now: the request is complete, answered, or it closed.
    func release(_ connection: UInt) {
        _ = waiting.withLock { $0.removeValue(forKey: connection) }
    }

    /// Shuts down every connection whose headers or body are late at `now`. The lock is held while shutting down,
    /// and a closing connection leaves the table under it before libmicrohttpd closes its socket, so a descriptor
    /// shut down here always still belongs to the late connection.
    func cutLate(at now: ContinuousClock.Instant) {
        waiting.withLock { table in
            for (connection, entry) in table where isLate(entry, at: now) {
                shutdown(entry.socket, Int32(SHUT_RDWR))
                table.removeValue(forKey: connection)
            }
        }
    }

    private func isLate(_ entry: Waiting, at now: ContinuousClock.Instant) -> Bool {
        let elapsed = now - entry.since
        guard elapsed >= timeout else { return false }
        guard let bytes = entry.bodyBytes else { return true }
        let counted = elapsed - timeout
        let seconds = Double(counted.components.seconds) + Double(counted.components.attoseconds) / 1e18
        return Double(bytes) < Double(minimumBodyRate) * seconds
    }
}
