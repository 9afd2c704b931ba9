import Foundation
import Testing

@testable import HeraldCore

@Suite struct QuietHoursTests {
    static let night = QuietHours(start: LocalTime("22:00")!, end: LocalTime("07:00")!)
    static let utc = FixedOffsetZone(identifier: "UTC", offset: 0)

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var hours: QuietHours
        var zone: any ZoneRules
        var at: Date
        /// Expected window as (start, end), or nil when `at` is outside quiet hours.
        var window: (Date, Date)?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "inside before midnight", hours: night, zone: utc, at: instant(2026, 6, 1, 23),
            window: (instant(2026, 6, 1, 22), instant(2026, 6, 2, 7))),
        Case(
            name: "inside after midnight", hours: night, zone: utc, at: instant(2026, 6, 2, 3),
            window: (instant(2026, 6, 1, 22), instant(2026, 6, 2, 7))),
        Case(
            name: "start is inclusive", hours: night, zone: utc, at: instant(2026, 6, 1, 22),
            window: (instant(2026, 6, 1, 22), instant(2026, 6, 2, 7))),
        Case(name: "end is exclusive", hours: night, zone: utc, at: instant(2026, 6, 2, 7), window: nil),
        Case(name: "daytime outside", hours: night, zone: utc, at: instant(2026, 6, 2, 12), window: nil),
        Case(
            name: "same-day window", hours: QuietHours(start: LocalTime("13:00")!, end: LocalTime("14:00")!), zone: utc,
            at: instant(2026, 6, 2, 13, 30), window: (instant(2026, 6, 2, 13), instant(2026, 6, 2, 14))),
        Case(
            name: "fixed +05:30", hours: night, zone: FixedOffsetZone(identifier: "x", offset: 19_800),
            at: instant(2026, 6, 1, 17, 0), window: (instant(2026, 6, 1, 16, 30), instant(2026, 6, 2, 1, 30))),
        Case(
            name: "fixed -10:00, local date behind UTC", hours: night,
            zone: FixedOffsetZone(identifier: "x", offset: -36_000),
            at: instant(2026, 6, 2, 9), window: (instant(2026, 6, 2, 8), instant(2026, 6, 2, 17))),
        Case(
            name: "weekday filter: window starting Friday covers Saturday morning",
            hours: QuietHours(start: LocalTime("22:00")!, end: LocalTime("07:00")!, days: [.fri]), zone: utc,
            at: instant(2026, 6, 6, 3), window: (instant(2026, 6, 5, 22), instant(2026, 6, 6, 7))),
        Case(
            name: "weekday filter: no window starting Saturday",
            hours: QuietHours(start: LocalTime("22:00")!, end: LocalTime("07:00")!, days: [.fri]), zone: utc,
            at: instant(2026, 6, 6, 23), window: nil),
        // Spring forward (8 March, 02:00 EST → 03:00 EDT): the night is 8 hours of real time.
        Case(
            name: "23-hour day: night across spring forward", hours: night, zone: SyntheticZone.eastern,
            at: instant(2026, 3, 8, 8), window: (instant(2026, 3, 8, 3), instant(2026, 3, 8, 11))),
        // Fall back (1 November, 02:00 EDT → 01:00 EST): the night is 10 hours of real time.
        Case(
            name: "25-hour day: night across fall back", hours: night, zone: SyntheticZone.eastern,
            at: instant(2026, 11, 1, 6, 30), window: (instant(2026, 11, 1, 2), instant(2026, 11, 1, 12))),
        // A start inside the gap (02:30 does not exist on 8 March) resolves to 03:00 EDT.
        Case(
            name: "start in the spring-forward gap",
            hours: QuietHours(start: LocalTime("02:30")!, end: LocalTime("06:00")!),
            zone: SyntheticZone.eastern, at: instant(2026, 3, 8, 7, 10),
            window: (instant(2026, 3, 8, 7), instant(2026, 3, 8, 10))),
        Case(
            name: "instant just before the gap start is outside",
            hours: QuietHours(start: LocalTime("02:30")!, end: LocalTime("06:00")!),
            zone: SyntheticZone.eastern, at: instant(2026, 3, 8, 6, 59), window: nil),
        // An end in the repeated hour (01:30 happens twice on 1 November) resolves to its first occurrence.
        Case(
            name: "end in the repeated hour", hours: QuietHours(start: LocalTime("23:00")!, end: LocalTime("01:30")!),
            zone: SyntheticZone.eastern, at: instant(2026, 11, 1, 5, 0),
            window: (instant(2026, 11, 1, 3), instant(2026, 11, 1, 5, 30))),
        Case(
            name: "second 01:15 is after the window",
            hours: QuietHours(start: LocalTime("23:00")!, end: LocalTime("01:30")!),
            zone: SyntheticZone.eastern, at: instant(2026, 11, 1, 6, 15), window: nil),
        // Midnight itself skipped (00:00 → 01:00): a window from 00:00 opens at 01:00 local.
        Case(
            name: "start at a skipped midnight",
            hours: QuietHours(start: LocalTime("00:00")!, end: LocalTime("06:00")!),
            zone: SyntheticZone.midnight, at: instant(2026, 4, 5, 4, 30),
            window: (instant(2026, 4, 5, 4), instant(2026, 4, 5, 9))),
        Case(
            name: "southern fall back lengthens the night", hours: night, zone: SyntheticZone.southern,
            at: instant(2026, 4, 5, 0, offset: 10 * 3_600),
            window: (instant(2026, 4, 4, 22, offset: 11 * 3_600), instant(2026, 4, 5, 7, offset: 10 * 3_600))),
    ]

    @Test(arguments: cases)
    func windowContaining(_ example: Case) {
        let window = example.hours.window(containing: example.at, in: example.zone)
        #expect(window?.start == example.window?.0)
        #expect(window?.end == example.window?.1)
    }

    @Test func windowLengthsFollowTheWallClockOnDSTDays() {
        let eastern = SyntheticZone.eastern
        let lengths = [(2026, 3, 7), (2026, 3, 8), (2026, 10, 31), (2026, 11, 1)].map { y, m, d in
            Self.night.window(startingOn: CivilDate(year: y, month: m, day: d), in: eastern)!.duration / 3_600
        }
        // 22:00→07:00 is 9 wall hours; the night containing spring forward is 8 real hours, fall back 10.
        #expect(lengths == [8, 9, 10, 9])
    }

    @Test func bothEndsInOneGapGiveNoWindowThatDay() {
        let hours = QuietHours(start: LocalTime("02:10")!, end: LocalTime("02:50")!)
        #expect(hours.window(startingOn: CivilDate(year: 2026, month: 3, day: 8), in: SyntheticZone.eastern) == nil)
        #expect(hours.window(startingOn: CivilDate(year: 2026, month: 3, day: 9), in: SyntheticZone.eastern) != nil)
    }

    @Test func deferralSkipsAnAdjacentWindow() {
        // 02:50 → 02:10 the next day: on the spring-forward day the window ending 02:10 and the one starting
        // 02:50 both resolve to 03:00, so the deferral must run to the end of the second window.
        let hours = QuietHours(start: LocalTime("02:50")!, end: LocalTime("02:10")!)
        let zone = SyntheticZone.eastern
        let at = instant(2026, 3, 8, 6, 30)  // 01:30 EST on 8 March, inside the window that started 7 March
        let end = hours.deferralEnd(for: at, in: zone)!
        #expect(hours.window(containing: end, in: zone) == nil)
        #expect(end == instant(2026, 3, 9, 6, 10))  // 02:10 EDT on 9 March
    }

    @Test func deferralsNeverLandInsideQuietHours() {
        // Property: for many instants, windows and zones, the deferral end is outside every window and not
        // earlier than the instant.
        var generator = SeededGenerator(seed: 7)
        let zones: [any ZoneRules] = TestZones.standard
        var checked = 0
        for _ in 0..<3_000 {
            let start = LocalTime(
                hour: Int.random(in: 0...23, using: &generator),
                minute: [0, 10, 30, 50].randomElement(using: &generator)!)!
            var end = LocalTime(
                hour: Int.random(in: 0...23, using: &generator),
                minute: [0, 10, 30, 50].randomElement(using: &generator)!)!
            if end == start { end = LocalTime(hour: (start.hour + 1) % 24, minute: start.minute)! }
            let days: Set<Weekday>? =
                Bool.random(using: &generator)
                ? nil : Set(Weekday.allCases.filter { _ in Bool.random(using: &generator) })
            let hours = QuietHours(start: start, end: end, days: days?.isEmpty == true ? nil : days)
            let zone = zones.randomElement(using: &generator)!
            // Around the DST transitions of the synthetic zones and elsewhere in the year.
            let base = [
                instant(2026, 3, 7), instant(2026, 4, 4), instant(2026, 10, 3), instant(2026, 10, 31),
                instant(2026, 6, 1),
            ]
            .randomElement(using: &generator)!
            let at = base + TimeInterval(Int.random(in: 0..<(3 * 86_400), using: &generator))
            guard let deferred = hours.deferralEnd(for: at, in: zone) else {
                #expect(hours.window(containing: at, in: zone) == nil)
                continue
            }
            checked += 1
            #expect(deferred > at)
            #expect(hours.window(containing: deferred, in: zone) == nil, "\(hours) \(zone.identifier) \(at)")
        }
        #expect(checked > 500)
    }

    @Test func validation() {
        #expect(QuietHours(start: LocalTime("07:00")!, end: LocalTime("07:00")!).validate().map(\.pointer) == ["/end"])
        #expect(
            QuietHours(start: LocalTime("22:00")!, end: LocalTime("07:00")!, days: []).validate().map(\.pointer) == [
                "/days"
            ])
        #expect(Self.night.validate().isEmpty)
    }

    @Test func codableUsesWireSpellings() throws {
        let json = #"{"start":"22:30","end":"06:45","days":["sat","sun"]}"#
        let hours = try JSONDecoder().decode(QuietHours.self, from: Data(json.utf8))
        #expect(hours.start == LocalTime("22:30"))
        #expect(hours.days == [.sat, .sun])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(QuietHours.self, from: Data(#"{"start":"25:00","end":"06:45"}"#.utf8))
        }
    }
}
