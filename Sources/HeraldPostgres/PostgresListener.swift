import Foundation
import Glibc
import Synchronization

/// Listens to NOTIFY channels on its own connection and thread, and yields what arrives as an `AsyncStream`.
///
/// After a lost connection it reconnects with backoff and listens again, yielding `.listening` each time: a
/// notification sent while it was disconnected is lost, so consumers treat `.listening` as "look for work now".
public final class PostgresListener: Sendable {
    /// What the listener reports.
    public enum Event: Sendable, Hashable {
        /// LISTEN is active on every channel (after the first connect and after each reconnect).
        case listening
        /// A notification arrived.
        case notification(PostgresNotification)
    }

    /// The events, in arrival order; finishes after `stop()`.
    public let events: AsyncStream<Event>
    private let wakeUp: ListenerWakeUp

    /// Starts the listener thread; it connects and issues LISTEN for each channel.
    public init(
        conninfo: String, channels: [String], threadName: String = "herald-pg-listen",
        maximumReconnectDelay: Duration = .seconds(5)
    ) throws {
        let wakeUp = try ListenerWakeUp()
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(10_000))
        self.events = events
        self.wakeUp = wakeUp
        continuation.onTermination = { _ in wakeUp.stop() }
        let thread = Thread {
            ListenerLoop(
                conninfo: conninfo, channels: channels, wakeUp: wakeUp, continuation: continuation,
                maximumDelay: maximumReconnectDelay
            ).run()
        }
        thread.name = threadName
        thread.start()
    }

    deinit {
        wakeUp.stop()
    }

    /// Stops listening; the thread closes its connection and `events` finishes.
    public func stop() {
        wakeUp.stop()
    }
}

/// A self-pipe that interrupts the listener's `poll`, so stopping takes effect at once.
final class ListenerWakeUp: Sendable {
    private struct State {
        var descriptor: Int32
        var writeEnd: Int32
        var stopped = false
    }

    private let state: Mutex<State>

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw PostgresError(kind: .other, message: "pipe failed: errno \(errno)")
        }
        // Close-on-exec, so child processes (pg_ctl, initdb) do not inherit the pipe.
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        state = Mutex(State(descriptor: ends[0], writeEnd: ends[1]))
    }

    /// The descriptor to poll; valid until `close()`.
    var descriptor: Int32 { state.withLock { $0.descriptor } }

    var isStopped: Bool { state.withLock { $0.stopped } }

    func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            var byte: UInt8 = 1
            if state.writeEnd >= 0 { _ = write(state.writeEnd, &byte, 1) }
        }
    }

    /// Called by the listener thread when it ends; later `stop()` calls must not write to a reused descriptor.
    func close() {
        state.withLock { state in
            if state.descriptor >= 0 {
                Glibc.close(state.descriptor)
                Glibc.close(state.writeEnd)
            }
            state.descriptor = -1
            state.writeEnd = -1
            state.stopped = true
        }
    }
}

/// The listener thread's loop; owns the connection.
private final class ListenerLoop {
    private let conninfo: String
    private let channels: [String]
    private let wakeUp: ListenerWakeUp
    private let continuation: AsyncStream<PostgresListener.Event>.Continuation
    private let maximumDelay: Duration
    private var connection: PostgresConnection?

    init(
        conninfo: String, channels: [String], wakeUp: ListenerWakeUp,
        continuation: AsyncStream<PostgresListener.Event>.Continuation, maximumDelay: Duration
    ) {
        self.conninfo = conninfo
        self.channels = channels
        self.wakeUp = wakeUp
        self.continuation = continuation
        self.maximumDelay = maximumDelay
    }

    func run() {
        var delay = Duration.milliseconds(50)
        while !wakeUp.isStopped {
            guard let connection else {
                if connect() {
                    delay = .milliseconds(50)
                } else {
                    _ = waitForStop(orSocket: nil, timeout: delay)
                    delay = min(delay * 2, maximumDelay)
                }
                continue
            }
            guard !waitForStop(orSocket: connection.socketDescriptor, timeout: nil) else { break }
            guard connection.consumeInput() else {
                self.connection = nil
                continue
            }
            deliver(connection.takeNotifications())
        }
        connection = nil
        wakeUp.close()
        continuation.finish()
    }

    private func connect() -> Bool {
        do {
            let connection = try PostgresConnection(conninfo: conninfo)
            for channel in channels { try connection.listen(channel) }
            self.connection = connection
            continuation.yield(.listening)
            deliver(connection.takeNotifications())
            return true
        } catch {
            return false
        }
    }

    private func deliver(_ notifications: [PostgresNotification]) {
        for notification in notifications { continuation.yield(.notification(notification)) }
    }

    /// Waits for the socket (if any) or the timeout; `true` when asked to stop.
    private func waitForStop(orSocket socket: Int32?, timeout: Duration?) -> Bool {
        var descriptors = [pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0)]
        if let socket { descriptors.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
        _ = poll(&descriptors, nfds_t(descriptors.count), timeout?.pollMilliseconds ?? -1)
        return descriptors[0].revents != 0 || wakeUp.isStopped
    }
}
