import HeraldCore
import Synchronization

/// Zone lookup over the system ICU's loaded tz data, with each zone's rules built once and shared by all threads.
public final class ICUZoneDirectory: ZoneDirectory {
    private let cache = Mutex<[String: ICUZoneRules]>([:])
    private let tableUntilYear: Int

    /// A directory whose zones answer from precomputed tables up to 1 January of `tableUntilYear` (ICU after).
    public init(tableUntilYear: Int = 2200) {
        self.tableUntilYear = tableUntilYear
    }

    /// The rules of `identifier` (aliases accepted), or nil for ids ICU does not know, Etc/Unknown and Factory.
    public func zone(_ identifier: String) -> (any ZoneRules)? {
        try? rules(for: identifier)
    }

    /// The rules of `identifier`; throws `.unknownZone` for ids the tz data does not know.
    public func rules(for identifier: String) throws(TimeZoneDataError) -> ICUZoneRules {
        if let cached = cache.withLock({ $0[identifier] }) { return cached }
        guard let canonical = ICUZoneHandle.canonicalIdentifier(identifier) else {
            throw TimeZoneDataError(.unknownZone, "unknown time zone id")
        }
        if let cached = cache.withLock({ $0[canonical] }) {
            cache.withLock { $0[identifier] = cached }
            return cached
        }
        // Built outside the lock; when two threads race, the first stored instance wins and is shared.
        let built = try ICUZoneRules(id: canonical, untilYear: tableUntilYear)
        return cache.withLock { entries in
            let winner = entries[canonical] ?? built
            entries[canonical] = winner
            entries[identifier] = winner
            return winner
        }
    }

    /// The canonical IANA id of `identifier`, or nil when unknown.
    public func canonicalIdentifier(_ identifier: String) -> String? {
        ICUZoneHandle.canonicalIdentifier(identifier)
    }

    /// Every canonical zone id of the loaded data, sorted.
    public var identifiers: [String] { ICUZoneHandle.identifiers(canonicalOnly: true) }

    /// Every accepted id (zones and links), sorted.
    public var allIdentifiers: [String] { ICUZoneHandle.identifiers(canonicalOnly: false) }
}
