import Foundation
import HeraldPostgres
import Synchronization

/// A connection to a database of its own, on the process's test server.
func freshConnection() throws -> PostgresConnection {
    try PostgresConnection(conninfo: try TemporaryPostgres.freshDatabase())
}

/// Runs `body` with a cluster started in a fresh temporary folder named after `prefix`, with its conninfo; the
/// server is stopped and the folder removed afterwards.
func withStartedCluster<T>(
    _ prefix: String, options: EmbeddedPostgres.Options = .init(durable: false),
    _ body: (EmbeddedPostgres, String) throws -> T
) throws -> T {
    let folder = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString.prefix(8))"
    let server = EmbeddedPostgres(folder: folder, options: options)
    defer {
        try? server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }
    return try body(server, try server.start())
}

/// Waits until `condition` holds, checking every few milliseconds; false when `timeout` passes first.
func eventually(timeout: Duration = .seconds(30), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return try condition()
}

/// The async variant of `eventually`, which sleeps without blocking a thread.
func waitUntil(timeout: Duration = .seconds(300), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}

/// A thread-safe counter that closures running on other threads can share.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    func add(_ amount: Int = 1) { storage.add(amount, ordering: .relaxed) }

    var value: Int { storage.load(ordering: .relaxed) }
}

/// Runs slow blocking work (initdb, pg_ctl) on a thread of its own, so it does not hold one of the few
/// cooperative threads that the other tests running in parallel need.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
