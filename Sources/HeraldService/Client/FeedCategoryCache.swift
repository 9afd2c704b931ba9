import Foundation
import HeraldCore
import HeraldPostgres
import Synchronization

/// Categories as the feed renders them, kept for a few seconds: decoding a category document with its templates
/// costs more than the rest of a feed page, and a template edit may show a few seconds late in the app's feed.
final class FeedCategoryCache: Sendable {
    private struct Entry {
        var category: HeraldCore.Category?
        var loadedAt: Date
    }

    private let lifetime: TimeInterval
    private let entries = Mutex<[String: Entry]>([:])

    init(lifetime: TimeInterval = 5) {
        self.lifetime = lifetime
    }

    /// The categories `ids` that exist, from the cache when fresh, else loaded on `connection`.
    func categories(
        _ ids: [String], now: Date, on connection: PostgresConnection
    ) throws -> [String: HeraldCore.Category] {
        var found: [String: HeraldCore.Category] = [:]
        let missing = entries.withLock { entries in
            ids.filter { id in
                guard let entry = entries[id], now.timeIntervalSince(entry.loadedAt) < lifetime,
                    entry.loadedAt <= now
                else { return true }
                if let category = entry.category { found[id] = category }
                return false
            }
        }
        guard !missing.isEmpty else { return found }
        let loaded = try CategoryRepository.categories(ids: missing, on: connection)
        entries.withLock { entries in
            // A feed touches few categories, but ids come from stored events: keep the table bounded.
            if entries.count > 10_000 { entries.removeAll() }
            for id in missing { entries[id] = Entry(category: loaded[id], loadedAt: now) }
        }
        found.merge(loaded) { _, new in new }
        return found
    }
}
