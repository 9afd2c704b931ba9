import HeraldCore
import Synchronization

/// Zone lookup over the system ICU's loaded tz data, with each zone's rules built once and shared by all threads.
public final class ICUZoneDirectory: ZoneDirectory {
    /// Where one zone's rules are built: the first thread to need them builds them under this lock, and every other
    /// thread that needs the same zone meanwhile waits for them instead of building its own.
    private final class Slot: Sendable {
        let rules = Mutex<ICUZoneRules?>(nil)
    }

    /// Built rules by every id asked for (aliases too): the path of every lookup after the first.
    private let cache = Mutex<[String: ICUZoneRules]>([:])
    /// One slot per canonical id whose rules were asked for; at most one per zone of the data.
    private let slots = Mutex<[String: Slot]>([:])
    private let builds = Atomic<Int>(0)
    private let tableUntilYear: Int

    /// A directory whose zones answer from precomputed tables up to 1 January of `tableUntilYear` (ICU after).
    public init(tableUntilYear: Int = 2200) {
        self.tableUntilYear = tableUntilYear
    }

    /// How many zones' rules this directory built.
    var buildCount: Int { builds.load(ordering: .relaxed) }

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
        let slot = slots.withLock { slots in
            if let slot = slots[canonical] { return slot }
            let slot = Slot()
            slots[canonical] = slot
            return slot
        }
        let built = try slot.rules.withLock { (rules) throws(TimeZoneDataError) -> ICUZoneRules in
            if let rules { return rules }
            let made = try ICUZoneRules(id: canonical, untilYear: tableUntilYear)
            builds.add(1, ordering: .relaxed)
            rules = made
            return made
        }
        cache.withLock { entries in
            entries[canonical] = built
            entries[identifier] = built
        }
        return built
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
