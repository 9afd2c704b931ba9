import Foundation
import HeraldHTTP
import HeraldPostgres
import Synchronization

/// Finds the key behind a bearer secret's hash in PostgreSQL, remembering answers for a few seconds so a busy
/// client does not cost a query per request. Valid and unknown keys are remembered apart, each least recently used
/// first out, so a flood of made-up keys can push out only other made-up keys. Revocations through this process take
/// effect at once.
final class DatabaseAuthenticator: Authenticator {
    private struct Entry<Answer> {
        var answer: Answer
        var expires: ContinuousClock.Instant
    }

    private struct Memory {
        var valid: LRUCache<String, Entry<Principal>>
        var unknown: LRUCache<String, Entry<Void>>
    }

    private let pool: PostgresPool
    private let memory: Mutex<Memory>
    private let lifetime: Duration

    init(pool: PostgresPool, lifetime: Duration = .seconds(5), validKeys: Int = 10_000, unknownKeys: Int = 1_000) {
        self.pool = pool
        self.lifetime = lifetime
        self.memory = Mutex(Memory(valid: LRUCache(capacity: validKeys), unknown: LRUCache(capacity: unknownKeys)))
    }

    func principal(forKeyHash keyHash: String) throws -> Principal? {
        let now = ContinuousClock.now
        let remembered = memory.withLock { memory -> Principal?? in
            if let entry = memory.valid.value(for: keyHash), entry.expires > now { return .some(entry.answer) }
            if let entry = memory.unknown.value(for: keyHash), entry.expires > now { return .some(nil) }
            return nil
        }
        if let remembered { return remembered }
        let record = try pool.withConnectionBlocking { connection in
            try APIKeyRepository.active(keyHash: keyHash, on: connection)
        }
        let principal = record.map { Principal(keyID: $0.id, scopes: Set($0.scopes.compactMap(Scope.init))) }
        memory.withLock { memory in
            if let principal {
                memory.valid.set(Entry(answer: principal, expires: now + lifetime), for: keyHash)
                memory.unknown.removeValue(for: keyHash)
            } else {
                memory.unknown.set(Entry(answer: (), expires: now + lifetime), for: keyHash)
                memory.valid.removeValue(for: keyHash)
            }
        }
        return principal
    }

    func knownPrincipal(forKeyHash keyHash: String) throws -> Principal? {
        let now = ContinuousClock.now
        let entry = memory.withLock { $0.valid.value(for: keyHash) }
        guard let entry else { return nil }
        if entry.expires > now { return entry.answer }
        // Seen valid before, but long enough ago that it may have been revoked elsewhere: ask again.
        return try principal(forKeyHash: keyHash)
    }

    /// Forgets every remembered answer, e.g. after a key was revoked.
    func forgetAll() {
        memory.withLock { memory in
            memory.valid.removeAll()
            memory.unknown.removeAll()
        }
    }
}
