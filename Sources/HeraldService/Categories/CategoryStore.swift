import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// Category reads and writes for the API, on the pool's threads. A write reads the current version, computes the
/// new document, and stores it only if the version is unchanged: with `If-Match` a lost race is a 412, without it
/// the change is recomputed on the fresh document, so no edit ever overwrites another unseen.
struct CategoryStore: Sendable {
    /// How often a write without `If-Match` recomputes after losing a race before giving up with 409.
    static let maxAttempts = 5

    let pool: PostgresPool
    /// The service's clock, which stamps every change.
    let clock: @Sendable () -> Date

    /// Stores a new category; 409 when the id is taken.
    func create(_ category: Category, actor: String?) throws -> CategoryRecord {
        let created = try pool.withConnectionBlocking { connection in
            try CategoryRepository.create(category, actorKeyId: actor, now: clock(), on: connection)
        }
        guard let created else {
            throw HTTPError.conflict("A category with the id '\(category.id)' already exists.", type: "category-exists")
        }
        return created
    }

    /// The category `id`; 404 when there is none.
    func find(_ id: String) throws -> CategoryRecord {
        guard CategoryRules.isSlug(id) else { throw Self.notFound(id) }
        let found = try pool.withConnectionBlocking { connection in
            try CategoryRepository.find(id: id, on: connection)
        }
        guard let found else { throw Self.notFound(id) }
        return found
    }

    /// A page of categories ordered by id.
    func page(after cursor: String?, limit: Int, archived: Bool?) throws -> [CategoryRecord] {
        try pool.withConnectionBlocking { connection in
            try CategoryRepository.page(after: cursor, limit: limit, archived: archived, on: connection)
        }
    }

    /// A page of category `id`'s history, oldest first; 404 when the category does not exist.
    func history(of id: String, afterVersion: Int, limit: Int) throws -> [CategoryChange] {
        guard CategoryRules.isSlug(id) else { throw Self.notFound(id) }
        return try pool.withConnectionBlocking { connection in
            guard try CategoryRepository.find(id: id, on: connection) != nil else { throw Self.notFound(id) }
            return try CategoryRepository.changes(id: id, afterVersion: afterVersion, limit: limit, on: connection)
        }
    }

    /// Applies `change` to category `id` under `condition`; returns the record the change was applied to, the stored
    /// record, and whether anything changed (an edit that changes nothing writes no version and no history).
    func modify(
        _ id: String, condition: CategoryETag.Condition?, action: CategoryChange.Action, actor: String?,
        change: @escaping @Sendable (CategoryRecord) throws -> Category
    ) throws -> (before: CategoryRecord, record: CategoryRecord, changed: Bool) {
        guard CategoryRules.isSlug(id) else { throw Self.notFound(id) }
        return try pool.withConnectionBlocking { [clock] connection in
            for _ in 0..<Self.maxAttempts {
                guard let current = try CategoryRepository.find(id: id, on: connection) else {
                    throw Self.notFound(id)
                }
                if let condition, !condition.matches(current.version) {
                    throw CategoryETag.preconditionFailed(current: current.version)
                }
                let next = try change(current)
                if next == current.category { return (current, current, false) }
                let outcome = try CategoryRepository.update(
                    id: id, expectedVersion: current.version, to: next, action: action, actorKeyId: actor,
                    now: clock(), on: connection)
                switch outcome {
                case .updated(let record): return (current, record, true)
                case .notFound: throw Self.notFound(id)
                case .stale(let now):
                    // The writer named the version it edited: someone else won, and only the writer can merge.
                    if condition?.expectedVersion != nil { throw CategoryETag.preconditionFailed(current: now) }
                }
            }
            throw HTTPError.conflict(
                "The category kept changing while this change was applied; retry.", type: "edit-contention")
        }
    }

    static func notFound(_ id: String) -> HTTPError {
        HTTPError.notFound("No category has the id '\(id)'.")
    }
}
