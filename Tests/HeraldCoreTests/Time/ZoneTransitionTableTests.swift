import Foundation
import Testing

@testable import HeraldCore

/// The pure table behind Herald's zone rules, on hand-made tables, checked against brute force.
@Suite("Zone transition table")
struct ZoneTransitionTableTests {
    /// A Berlin-like year: +1 h, +2 h from t=1000·3600, +1 h from t=5000·3600; plus a 30-minute and a 24-hour step.
    static let table = ZoneTransitionTable(
        initialOffset: 3600,
        changes: [
            (1000 * 3600, 7200), (5000 * 3600, 3600), (5000 * 3600 + 1, 3600), (8000 * 3600, 5400),
            (9000 * 3600, 3600), (12_000 * 3600, 90_000),
        ])

    @Test("Repeated offsets are dropped; lookups at and around changes")
    func lookups() {
        let t = Self.table
        #expect(t.transitions.count == 5)
        #expect(t.offset(at: Int.min / 2) == 3600)
        #expect(t.offset(at: 1000 * 3600 - 1) == 3600 && t.offset(at: 1000 * 3600) == 7200)
        #expect(t.nextTransition(after: 0) == 1000 * 3600)
        #expect(t.nextTransition(after: 1000 * 3600) == 5000 * 3600)
        #expect(t.nextTransition(after: 12_000 * 3600) == nil)
    }

    @Test("resolve: first occurrence, end of gap, and agreement with brute force")
    func resolveAgreesWithBruteForce() {
        let t = Self.table
        // Gap 1000h+1h … 1000h+2h local (wall clock jumps from +1 h to +2 h).
        #expect(t.resolve(localSecondsAsUTC: 1000 * 3600 + 3600 + 1800) == 1000 * 3600)
        // Overlap: 5000h+1h … 5000h+2h local happens twice; the first is at +2 h.
        #expect(t.resolve(localSecondsAsUTC: 5000 * 3600 + 3600 + 1800) == 5000 * 3600 - 1800)
        // The 24-hour jump skips a whole day.
        #expect(t.resolve(localSecondsAsUTC: 12_000 * 3600 + 3600 + 12 * 3600) == 12_000 * 3600)
        for local in stride(from: 990 * 3600, to: 12_100 * 3600, by: 599) {
            #expect(t.resolve(localSecondsAsUTC: local) == Self.bruteForce(t, local))
        }
    }

    /// The earliest instant whose wall time is `local`, else the first instant whose wall time is later.
    static func bruteForce(_ t: ZoneTransitionTable, _ local: Int) -> Int {
        let candidates = t.offsets.map { local - $0 }.filter { t.offset(at: $0) + $0 == local }
        if let first = candidates.min() { return first }
        return t.transitions.first {
            $0 + t.offset(at: $0) > local && $0 + t.offset(at: $0 - 1) <= local
        }!
    }

    @Test("TableZone and FixedOffsetZone answer through ZoneRules")
    func zoneRules() {
        let zone = TableZone(identifier: "Test/Zone", table: Self.table)
        let instant = Date(timeIntervalSince1970: TimeInterval(1000 * 3600))
        #expect(zone.offsetSeconds(at: instant) == 7200)
        #expect(zone.offsetSeconds(at: instant - 0.5) == 3600)
        #expect(zone.nextTransition(after: instant - 0.5) == instant)
        let fixed = FixedOffsetZone(identifier: "Test/Plus0545", offset: 20_700)
        let local = LocalDateTime(year: 2026, month: 3, day: 29, hour: 0, minute: 0)
        #expect(
            fixed.instant(for: local).timeIntervalSince1970 == TimeInterval(local.secondsAsUTC - 20_700))
        #expect(fixed.localDateTime(at: fixed.instant(for: local)) == local)
        #expect(fixed.nextTransition(after: instant) == nil)
        #expect(
            fixed.nextOccurrence(of: LocalTime("00:00")!, atOrAfter: fixed.instant(for: local) + 1)
                == fixed.instant(for: local.addingDays(1)))
    }
}
