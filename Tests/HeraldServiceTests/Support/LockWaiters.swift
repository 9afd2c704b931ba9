import Foundation
import HeraldPostgres

/// Tells when a request has reached a row lock another transaction holds, without sleeping a guessed time.
enum LockWaiters {
    static let waiting = Query(
        name: "test.lock_waiters",
        sql: """
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()
            """)

    /// Polls the database of `conninfo` until one of its sessions waits on a lock; false if none does within
    /// `deadline`.
    static func appear(conninfo: String, deadline: Duration = .seconds(30)) async throws -> Bool {
        let watcher = try PostgresConnection(conninfo: conninfo)
        let end = ContinuousClock.now + deadline
        while ContinuousClock.now < end {
            if try watcher.query(waiting).single().int(0) > 0 { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
