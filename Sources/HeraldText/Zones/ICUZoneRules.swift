import Foundation
import HeraldCore
import Synchronization

/// `ZoneRules` of one zone from ICU: a transition table read from ICU once, answered in pure Swift without locks;
/// instants beyond the table (after its horizon year) go to ICU itself under a lock.
public final class ICUZoneRules: ZoneRules {
    /// The canonical IANA identifier.
    public let identifier: String
    /// Every offset change before `horizon`.
    public let table: ZoneTransitionTable
    /// The table is complete for instants before this second; nil when the zone has no later transitions at all.
    let horizon: Int?
    private let engine: Mutex<ICUZoneHandle>

    /// Reads the table of `id` from ICU up to 1 January of `untilYear`.
    init(id: String, untilYear: Int) throws(TimeZoneDataError) {
        let handle = try ICUZoneHandle(id: id)
        let limit = CivilCalendar.days(year: untilYear, month: 1, day: 1) * 86_400
        // ICU's first transition lies after this (the earliest tz data is from the 1800s).
        var ms = -1.0e14
        let initial = handle.totalOffset(atSecond: Int(ms / 1000))
        var changes: [(at: Int, offset: Int)] = []
        var horizon: Int? = nil
        while let next = handle.nextTransition(afterMilliseconds: ms) {
            let at = Int((next / 1000).rounded(.down))
            if at >= limit {
                horizon = limit
                break
            }
            changes.append((at, handle.totalOffset(atSecond: at)))
            ms = next
        }
        self.identifier = handle.identifier
        self.table = ZoneTransitionTable(initialOffset: initial, changes: changes)
        self.horizon = horizon
        self.engine = Mutex(handle)
    }

    /// The total offset at `instant`.
    public func offsetSeconds(at instant: Date) -> Int {
        let second = Int(instant.timeIntervalSince1970.rounded(.down))
        if let horizon, second >= horizon {
            return engine.withLock { $0.totalOffset(atSecond: second) }
        }
        return table.offset(at: second)
    }

    /// The first offset change strictly after `instant`.
    public func nextTransition(after instant: Date) -> Date? {
        let second = Int(instant.timeIntervalSince1970.rounded(.down))
        if let next = table.nextTransition(after: second) {
            return Date(timeIntervalSince1970: TimeInterval(next))
        }
        guard horizon != nil else { return nil }
        return engine.withLock { $0.nextOffsetChange(after: second) }.map {
            Date(timeIntervalSince1970: TimeInterval($0))
        }
    }

    /// The instant of `local` by Herald's DST policy. Invalid dates (e.g. 30 February) are rolled over first.
    public func instant(for local: LocalDateTime) -> Date {
        let seconds = local.secondsAsUTC
        if let horizon, seconds + ZoneTransitionTable.searchWindow >= horizon {
            let normalized = LocalDateTime(secondsAsUTC: seconds)
            let resolved = engine.withLock { $0.resolve(normalized) } ?? (seconds - table.offsets.last!)
            return Date(timeIntervalSince1970: TimeInterval(resolved))
        }
        return Date(timeIntervalSince1970: TimeInterval(table.resolve(localSecondsAsUTC: seconds)))
    }
}
