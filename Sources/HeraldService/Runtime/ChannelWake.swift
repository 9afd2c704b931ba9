import HeraldPostgres

/// A LISTEN connection of its own whose notifications call `wake`: how a background part's loop learns of work
/// committed elsewhere without waiting for its next poll. Each (re)connect calls `wake` too, since notifications
/// sent while it was disconnected are lost.
final class ChannelWake: Sendable {
    private let listener: PostgresListener
    private let forwarding: Task<Void, Never>

    /// Starts listening to `channel` on a thread named `threadName`.
    init(conninfo: String, channel: String, threadName: String, wake: @escaping @Sendable () -> Void) throws {
        listener = try PostgresListener(conninfo: conninfo, channels: [channel], threadName: threadName)
        let events = listener.events
        forwarding = Task { for await _ in events { wake() } }
    }

    /// Stops listening and closes the connection.
    func stop() {
        listener.stop()
        forwarding.cancel()
    }
}
