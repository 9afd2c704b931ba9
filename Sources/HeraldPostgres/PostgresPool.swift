import Dispatch
import Foundation
import Synchronization

/// A fixed set of PostgreSQL connections, each owned by its own OS thread, so blocking libpq calls never occupy
/// Swift's cooperative thread pool. Work is queued and runs on the first free connection.
///
/// A connection found broken (server restart, terminated backend) is re-established with capped exponential
/// backoff; the call that was running on it fails with a retryable `PostgresError` and later calls succeed again.
public final class PostgresPool: Sendable {
    /// How to connect and how many connections to keep.
    public struct Configuration: Sendable {
        /// libpq conninfo string or `postgresql://` URL.
        public var conninfo: String
        /// Number of connections (and threads).
        public var size: Int
        /// Prefix of the worker threads' names (`Thread.name`, and `PostgresPool.currentWorkerName` inside work).
        public var threadName: String
        /// First delay before retrying a failed reconnect; doubles per failure.
        public var reconnectDelay: Duration
        /// Upper bound of the reconnect delay.
        public var maximumReconnectDelay: Duration
        /// How long a blocking caller waits for a free connection before the call fails with `.poolTimeout`
        /// (the work never starts); nil waits as long as it takes.
        public var maximumWait: Duration?
        /// Server settings of every session, e.g. `statement_timeout` and `lock_timeout` in milliseconds.
        public var sessionParameters: [(name: String, value: String)]

        /// A configuration with the usual delays (50 ms doubling up to 5 s).
        public init(conninfo: String, size: Int = 4, threadName: String = "herald-pg") {
            self.conninfo = conninfo
            self.size = max(1, size)
            self.threadName = threadName
            self.reconnectDelay = .milliseconds(50)
            self.maximumReconnectDelay = .seconds(5)
            self.maximumWait = nil
            self.sessionParameters = []
        }

        /// The connection string with the session parameters added.
        var sessionConninfo: String {
            get throws { try Conninfo.addingServerParameters(sessionParameters, to: conninfo) }
        }
    }

    /// A snapshot of the pool's usage, for metrics.
    public struct Stats: Sendable, Equatable {
        /// Number of connections.
        public let size: Int
        /// Connections running a caller's work right now.
        public let busy: Int
        /// Calls queued for a free connection.
        public let waiting: Int
        /// Calls that got a connection since the pool started.
        public let totalAcquired: Int
        /// Successful reconnects since the pool started.
        public let reconnects: Int
    }

    private let shared: PoolShared

    /// Opens every connection now (so a bad configuration fails at start) and starts their threads.
    ///
    /// This blocks while connecting; call it before serving, not from an async task's hot path.
    public init(_ configuration: Configuration) throws {
        let conninfo = try configuration.sessionConninfo
        let handoffs = try (0..<configuration.size).map { _ in
            ConnectionHandoff(try PostgresConnection(conninfo: conninfo))
        }
        let shared = PoolShared(configuration: configuration)
        self.shared = shared
        for (index, handoff) in handoffs.enumerated() {
            let name = "\(configuration.threadName)-\(index + 1)"
            let thread = Thread {
                Thread.current.threadDictionary[Self.workerNameKey] = name
                PoolWorker(shared: shared, connection: handoff.take()).run()
            }
            thread.name = name
            thread.start()
        }
    }

    /// Shorthand for a pool of `size` connections to `conninfo`.
    public convenience init(conninfo: String, size: Int) throws {
        try self.init(Configuration(conninfo: conninfo, size: size))
    }

    deinit {
        shared.close(waitForWorkers: false)
    }

    /// Runs `body` with a connection on one of the pool's threads and returns its result.
    ///
    /// Cancelling the calling task does not interrupt `body`; it runs to completion.
    public func withConnection<R: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> R
    ) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in
            shared.submit(
                PoolJob(
                    run: { connection in continuation.resume(with: Result { try body(connection) }) },
                    fail: { error in continuation.resume(throwing: error) }))
        }
    }

    /// Runs `body` with a connection and blocks the calling thread until it is done.
    ///
    /// When no connection frees up within `maximumWait` (default: the configuration's), the call fails with
    /// `.poolTimeout` and `body` never runs; once `body` has started, the call waits for it to end.
    ///
    /// For callers that already are plain threads (HTTP worker threads); never call it from a Swift task, nor
    /// from inside another pool call (that could wait for itself).
    public func withConnectionBlocking<R: Sendable>(
        maximumWait: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) throws -> R
    ) throws -> R {
        let slot = BlockingSlot<R>()
        let wait = maximumWait ?? shared.configuration.maximumWait
        let ticket = wait.map { _ in PoolTicket() }
        shared.submit(
            PoolJob(
                run: { connection in slot.fulfil(Result { try body(connection) }) },
                fail: { error in slot.fulfil(.failure(error)) }, ticket: ticket))
        guard let wait, let ticket else { return try slot.wait() }
        if let result = slot.wait(atMost: wait) { return try result.get() }
        guard ticket.abandon() else { return try slot.wait() }
        throw PostgresError(kind: .poolTimeout, message: "no database connection became free in time")
    }

    /// The name of the pool worker thread running the caller, or `nil` on any other thread.
    public static var currentWorkerName: String? {
        Thread.current.threadDictionary[workerNameKey] as? String
    }

    private static let workerNameKey = "herald.postgres.pool-worker"

    /// Current usage, for metrics.
    public var stats: Stats { shared.stats() }

    /// Stops taking work, lets queued work finish, then closes every connection and ends the threads.
    public func close() {
        shared.close(waitForWorkers: true)
    }
}

/// Moves a freshly opened connection into its worker thread; only that thread ever touches it afterwards.
private final class ConnectionHandoff: Sendable {
    private let slot: Mutex<PostgresConnection?>

    init(_ connection: sending PostgresConnection) {
        slot = Mutex(connection)
    }

    func take() -> sending PostgresConnection {
        slot.withLock { connection in
            let taken = connection.take()!
            return taken
        }
    }
}

/// Where a blocking caller waits for its result.
private final class BlockingSlot<R: Sendable>: Sendable {
    private let result = Mutex<Result<R, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func fulfil(_ value: Result<R, any Error>) {
        result.withLock { $0 = value }
        done.signal()
    }

    func wait() throws -> R {
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// The result, or nil when none came within `limit`.
    func wait(atMost limit: Duration) -> Result<R, any Error>? {
        let (seconds, attoseconds) = limit.components
        let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        guard done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return nil }
        return result.withLock { $0! }
    }
}
