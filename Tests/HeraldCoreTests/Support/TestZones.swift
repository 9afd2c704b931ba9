import Foundation
import HeraldCore

/// The UTC instant of a wall time with a fixed offset, for writing expectations.
func instant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, offset: Int = 0) -> Date {
    let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
    return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 - offset))
}

/// A zone with explicit transitions, implementing Herald's DST policy by brute force: a wall time maps to every
/// offset that is actually in effect at the resulting instant, the earliest wins; in a gap, the transition instant.
struct SyntheticZone: ZoneRules {
    struct Transition: Sendable {
        var at: Date
        var offset: Int
    }

    let identifier: String
    let initialOffset: Int
    let transitions: [Transition]

    func offsetSeconds(at instant: Date) -> Int {
        transitions.last(where: { $0.at <= instant })?.offset ?? initialOffset
    }

    func nextTransition(after instant: Date) -> Date? {
        transitions.first(where: { $0.at > instant })?.at
    }

    func instant(for local: LocalDateTime) -> Date {
        let wall =
            HeraldCoreTests.instant(local.year, local.month, local.day, local.hour, local.minute)
            + TimeInterval(local.second)
        let offsets = Set([initialOffset] + transitions.map(\.offset))
        let candidates = offsets.compactMap { offset -> Date? in
            let candidate = wall - TimeInterval(offset)
            return offsetSeconds(at: candidate) == offset ? candidate : nil
        }
        if let earliest = candidates.min() { return earliest }
        for (index, transition) in transitions.enumerated() {
            let before = index == 0 ? initialOffset : transitions[index - 1].offset
            if wall - TimeInterval(before) >= transition.at, wall - TimeInterval(transition.offset) < transition.at {
                return transition.at
            }
        }
        return wall - TimeInterval(initialOffset)
    }

    /// US Eastern rules for 2026: 02:00 EST → 03:00 EDT on 8 March, 02:00 EDT → 01:00 EST on 1 November.
    static let eastern = SyntheticZone(
        identifier: "Test/Eastern", initialOffset: -5 * 3_600,
        transitions: [
            Transition(at: HeraldCoreTests.instant(2026, 3, 8, 7), offset: -4 * 3_600),
            Transition(at: HeraldCoreTests.instant(2026, 11, 1, 6), offset: -5 * 3_600),
        ])

    /// A zone whose clocks jump at midnight (00:00 → 01:00 on 5 April, 01:00 → 00:00 on 4 October 2026).
    static let midnight = SyntheticZone(
        identifier: "Test/Midnight", initialOffset: -4 * 3_600,
        transitions: [
            Transition(at: HeraldCoreTests.instant(2026, 4, 5, 4), offset: -3 * 3_600),
            Transition(at: HeraldCoreTests.instant(2026, 10, 4, 4), offset: -4 * 3_600),
        ])

    /// A southern-hemisphere zone at +10/+11 with half-hour-free transitions at 02:00/03:00 local.
    static let southern = SyntheticZone(
        identifier: "Test/Southern", initialOffset: 11 * 3_600,
        transitions: [
            Transition(at: HeraldCoreTests.instant(2026, 4, 5, 3, offset: 11 * 3_600), offset: 10 * 3_600),
            Transition(at: HeraldCoreTests.instant(2026, 10, 4, 2, offset: 10 * 3_600), offset: 11 * 3_600),
        ])
}

/// A zone directory over a fixed set of zones; anything else is unknown.
struct TestZones: ZoneDirectory {
    var zones: [String: any ZoneRules]

    init(_ zones: [any ZoneRules] = TestZones.standard) {
        self.zones = Dictionary(uniqueKeysWithValues: zones.map { ($0.identifier, $0) })
    }

    func zone(_ identifier: String) -> (any ZoneRules)? { zones[identifier] }

    static let standard: [any ZoneRules] = [
        SyntheticZone.eastern, SyntheticZone.midnight, SyntheticZone.southern,
        FixedOffsetZone(identifier: "UTC", offset: 0),
        FixedOffsetZone(identifier: "Test/Plus0530", offset: 19_800),
        FixedOffsetZone(identifier: "Test/Minus10", offset: -36_000),
        FixedOffsetZone(identifier: "Test/Plus14", offset: 50_400),
    ]
}
