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
    /// `deadline`. It looks at least once more after the deadline: on a loaded machine this task may not run at all
    /// for a while.
    static func appear(conninfo: String, deadline: Duration = .seconds(120)) async throws -> Bool {
        let watcher = try PostgresConnection(conninfo: conninfo)
        let end = ContinuousClock.now + deadline
        while true {
            let late = ContinuousClock.now >= end
            if try watcher.query(waiting).single().int(0) > 0 { return true }
            if late { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
