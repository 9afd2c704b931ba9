import Foundation
import HeraldCore
import HeraldPostgres
import Synchronization

/// The categories the workers decide with, kept by version. Each batch still asks the database, inside its own
/// transaction, which version of each category is current, so a decision never uses an edit's predecessor; only
/// the documents of versions it does not hold yet are sent and decoded. A category's version changes with every
/// edit, archive and restore.
final class CategoryVersionCache: Sendable {
    fileprivate struct Entry {
        let version: Int
        let category: HeraldCore.Category
    }

    /// Ids come from stored events: past this many the table starts again, so it stays bounded.
    static let capacity = 10_000
    private let entries = Mutex<[String: Entry]>([:])
    private let decoded = Atomic<Int>(0)

    /// How many category documents were decoded since the start: a measure of the misses.
    var documentsDecoded: Int { decoded.load(ordering: .relaxed) }

    /// What a batch asks the database about its categories: the entries it holds, and the statement that says
    /// which of them are current (nil when no id can be a category's).
    struct Request {
        fileprivate let held: [String: Entry]
        let query: BoundQuery?
    }

    /// The request for `ids`, to send with the batch's other reads.
    func request(_ ids: [String]) -> Request {
        // The entries this batch holds: a row without a document is the version held here, whatever another
        // worker does to the table meanwhile.
        let held = entries.withLock { entries in
            ids.reduce(into: [String: Entry]()) { held, id in held[id] = entries[id] }
        }
        return Request(
            held: held, query: CategoryRepository.currentQuery(ids: ids, knownVersions: held.mapValues(\.version)))
    }

    /// The categories among `ids` that exist, by id, archived ones included, as of `connection`'s transaction.
    func categories(_ ids: [String], on connection: PostgresConnection) throws -> [String: HeraldCore.Category] {
        let request = request(ids)
        guard let query = request.query else { return [:] }
        return try categories(request, rows: connection.query(query.query, query.parameters))
    }

    /// The categories `request` found in `rows`, its query's result; keeps the documents it had not held.
    func categories(_ request: Request, rows: PostgresResult) throws -> [String: HeraldCore.Category] {
        var found: [String: HeraldCore.Category] = [:]
        var fresh: [String: Entry] = [:]
        for (id, row) in try CategoryRepository.current(from: rows) {
            if let category = row.category {
                fresh[id] = Entry(version: row.version, category: category)
                found[id] = category
            } else if let entry = request.held[id] {
                found[id] = entry.category
            }
        }
        if !fresh.isEmpty {
            decoded.add(fresh.count, ordering: .relaxed)
            entries.withLock { entries in
                if entries.count + fresh.count > Self.capacity { entries.removeAll() }
                entries.merge(fresh) { old, new in new.version >= old.version ? new : old }
            }
        }
        return found
    }
}
