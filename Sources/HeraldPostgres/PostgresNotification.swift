internal import CLibPQ
import Glibc

/// A message sent with NOTIFY (or `pg_notify`) on a channel this session listens to.
public struct PostgresNotification: Sendable, Hashable {
    /// The channel name.
    public let channel: String
    /// The payload text (may be empty).
    public let payload: String
    /// The server process that sent it.
    public let senderPID: Int
}

extension PostgresConnection {
    /// Starts listening on `channel` (quoted as an identifier, so any name is safe).
    public func listen(_ channel: String) throws {
        try executeScript(Query(unsafeSQL: "LISTEN " + (try quoteIdentifier(channel))))
    }

    /// Sends `payload` to listeners of `channel`; delivered when the current transaction commits.
    public func notify(_ channel: String, payload: String = "") throws {
        try query(Self.notifyQuery, [channel, payload])
    }

    /// `name` quoted as a SQL identifier by libpq.
    public func quoteIdentifier(_ name: String) throws -> String {
        guard let quoted = PQescapeIdentifier(handle, name, name.utf8.count) else { throw connectionError() }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    /// Waits up to `timeout` for notifications on the channels this idle session listens to and returns them
    /// (none when the time passed). For a thread that owns its connection; `PostgresListener` is the service's way.
    public func notifications(waitingAtMost timeout: Duration) throws -> [PostgresNotification] {
        let pending = takeNotifications()
        guard pending.isEmpty else { return pending }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeout.pollMilliseconds) > 0 else { return [] }
        guard consumeInput() else { throw connectionError() }
        return takeNotifications()
    }

    /// Notifications already read from the socket.
    func takeNotifications() -> [PostgresNotification] {
        var received: [PostgresNotification] = []
        while let notification = PQnotifies(handle) {
            received.append(
                PostgresNotification(
                    channel: String(cString: notification.pointee.relname),
                    payload: String(cString: notification.pointee.extra),
                    senderPID: Int(notification.pointee.be_pid)))
            PQfreemem(notification)
        }
        return received
    }

    /// Reads whatever the server sent; `false` when the connection turned out to be broken.
    func consumeInput() -> Bool {
        PQconsumeInput(handle) == 1 && isConnected
    }

    /// The socket to poll for server messages.
    var socketDescriptor: Int32 { PQsocket(handle) }

    /// Checks an idle session without a round trip: a terminated backend or a restarted server has already sent
    /// its goodbye (or closed the socket), so a readable socket tells whether the session is still alive.
    func isAliveWhenIdle() -> Bool {
        // A goodbye message and the end of the stream may need separate reads; a live idle session rarely has
        // anything to read at all, so a few rounds cost nothing.
        for _ in 0..<4 {
            guard isConnected else { return false }
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { return true }
            guard consumeInput() else { return false }
            _ = takeNotifications()
        }
        return isConnected
    }

    static let notifyQuery = Query(name: "herald.notify", sql: "SELECT pg_notify($1, $2)")
}

extension Duration {
    /// The duration in whole milliseconds, as `poll` takes a timeout (never negative).
    var pollMilliseconds: Int32 {
        Int32(clamping: max(0, components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000))
    }
}
