import Foundation
import HeraldHTTP
import HeraldPostgres
import Synchronization

/// Finds the key behind a bearer secret's hash in PostgreSQL, remembering answers for a few seconds so a busy
/// client does not cost a query per request. Revocations through this process take effect at once.
final class DatabaseAuthenticator: Authenticator {
    private struct Entry {
        var principal: Principal?
        var expires: ContinuousClock.Instant
    }

    private let pool: PostgresPool
    private let cache = Mutex<[String: Entry]>([:])
    private let lifetime: Duration

    init(pool: PostgresPool, lifetime: Duration = .seconds(5)) {
        self.pool = pool
        self.lifetime = lifetime
    }

    func principal(forKeyHash keyHash: String) throws -> Principal? {
        let now = ContinuousClock.now
        if let entry = cache.withLock({ $0[keyHash] }), entry.expires > now {
            return entry.principal
        }
        let record = try pool.withConnectionBlocking { connection in
            try APIKeyRepository.active(keyHash: keyHash, on: connection)
        }
        let principal = record.map { Principal(keyID: $0.id, scopes: Set($0.scopes.compactMap(Scope.init))) }
        cache.withLock { entries in
            if entries.count > 10_000 { entries.removeAll() }
            entries[keyHash] = Entry(principal: principal, expires: now + lifetime)
        }
        return principal
    }

    /// Forgets every remembered answer, e.g. after a key was revoked.
    func forgetAll() {
        cache.withLock { $0.removeAll() }
    }
}
