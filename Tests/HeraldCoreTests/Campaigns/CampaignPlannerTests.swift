import Foundation
import HeraldCore
import Testing

@Suite("Campaign planner")
struct CampaignPlannerTests {
    static let zones = TestZones(
        TestZones.standard + [
            FixedOffsetZone(identifier: "Test/Plus0545", offset: 20_700),
            FixedOffsetZone(identifier: "Test/Alias0530", offset: 19_800),
        ])
    static let utc = FixedOffsetZone(identifier: "UTC", offset: 0)
    static let longAgo = instant(2020, 1, 1)

    static func plan(
        _ audience: [(String?, Int)], date: CivilDate, time: String, now: Date = longAgo, late: LatePolicy = .skip
    ) -> CampaignPlan {
        CampaignPlanner.plan(
            audience.map { ZoneAudience(zone: $0.0, recipients: $0.1) }, date: date, time: LocalTime(time)!,
            now: now, late: late, defaultZone: utc, directory: zones)
    }

    @Test func anOrdinaryDayGivesOneWavePerDistinctInstantInDueOrder() {
        let plan = Self.plan(
            [("Test/Eastern", 10), ("UTC", 5), ("Test/Plus0530", 3), ("Test/Alias0530", 2), ("Test/Minus10", 1)],
            date: CivilDate(year: 2026, month: 12, day: 1), time: "09:00")
        #expect(
            plan.waves.map(\.dueAt) == [
                instant(2026, 12, 1, 9, offset: 19_800), instant(2026, 12, 1, 9), instant(2026, 12, 1, 14),
                instant(2026, 12, 1, 19),
            ])
        #expect(
            plan.waves.map(\.zones) == [
                ["Test/Alias0530", "Test/Plus0530"], ["UTC"], ["Test/Eastern"], ["Test/Minus10"],
            ])
        #expect(plan.waves.map(\.recipients) == [5, 5, 10, 1])
        #expect(plan.waves.map(\.number) == [1, 2, 3, 4])
        #expect(plan.waves.allSatisfy { $0.state == .pending })
        #expect(plan.recipients == 21)
        #expect(plan.unknownZones.isEmpty)
    }

    @Test func halfAndQuarterHourZonesGetTheirOwnInstants() {
        let plan = Self.plan(
            [("Test/Plus0530", 1), ("Test/Plus0545", 1), ("UTC", 1)], date: CivilDate(year: 2026, month: 6, day: 1),
            time: "08:00")
        #expect(
            plan.waves.map(\.dueAt) == [
                instant(2026, 6, 1, 2, 15), instant(2026, 6, 1, 2, 30), instant(2026, 6, 1, 8),
            ])
    }

    @Test func aTimeSkippedBySpringForwardIsSentAtTheEndOfTheGap() {
        // 02:30 does not exist in Eastern on 8 March 2026 (02:00 EST → 03:00 EDT at 07:00 UTC).
        let plan = Self.plan([("Test/Eastern", 4)], date: CivilDate(year: 2026, month: 3, day: 8), time: "02:30")
        #expect(plan.waves.map(\.dueAt) == [instant(2026, 3, 8, 7)])
    }

    @Test func aTimeRepeatedByFallBackIsSentAtItsFirstOccurrence() {
        // 01:30 happens twice in Eastern on 1 November 2026: first at 05:30 UTC (EDT), again at 06:30 UTC (EST).
        let plan = Self.plan([("Test/Eastern", 4)], date: CivilDate(year: 2026, month: 11, day: 1), time: "01:30")
        #expect(plan.waves.map(\.dueAt) == [instant(2026, 11, 1, 5, 30)])
    }

    @Test func lateZonesAreSkippedWithTheirCounts() {
        let now = instant(2026, 12, 1, 10)
        let plan = Self.plan(
            [("Test/Plus0530", 3), ("UTC", 5), ("Test/Eastern", 7)], date: CivilDate(year: 2026, month: 12, day: 1),
            time: "09:00", now: now, late: .skip)
        #expect(plan.waves.map(\.state) == [.skipped, .skipped, .pending])
        #expect(plan.waves.map(\.recipients) == [3, 5, 7])
        // A skipped wave is finished as it is planned.
        #expect(plan.waves.map(\.finishedAt) == [now, now, nil])
        #expect(plan.waves.last?.dueAt == instant(2026, 12, 1, 14))
    }

    @Test func lateZonesAreSentTogetherNowWithSendNow() {
        let now = instant(2026, 12, 1, 10)
        let plan = Self.plan(
            [("Test/Plus0530", 3), ("UTC", 5), ("Test/Eastern", 7)], date: CivilDate(year: 2026, month: 12, day: 1),
            time: "09:00", now: now, late: .sendNow)
        #expect(plan.waves.map(\.dueAt) == [now, instant(2026, 12, 1, 14)])
        #expect(plan.waves.map(\.zones) == [["Test/Plus0530", "UTC"], ["Test/Eastern"]])
        #expect(plan.waves.map(\.recipients) == [8, 7])
        #expect(plan.waves.allSatisfy { $0.state == .pending })
    }

    @Test func aZoneWhoseInstantIsExactlyNowIsLate() {
        let now = instant(2026, 12, 1, 9)
        let plan = Self.plan([("UTC", 1)], date: CivilDate(year: 2026, month: 12, day: 1), time: "09:00", now: now)
        #expect(plan.waves.map(\.state) == [.skipped])
    }

    @Test func usersWithoutAZoneGoWithTheDefaultZoneWhoseWaveSendsThem() {
        let plan = Self.plan(
            [("UTC", 2), (nil, 3), ("Test/Eastern", 1)], date: CivilDate(year: 2026, month: 12, day: 1), time: "09:00")
        #expect(plan.waves.map(\.zones) == [["UTC"], ["Test/Eastern"]])
        #expect(plan.waves.map(\.recipients) == [5, 1])
        #expect(plan.waves.map(\.sendsZoneless) == [true, false])
        let alone = Self.plan([(nil, 4)], date: CivilDate(year: 2026, month: 12, day: 1), time: "09:00")
        #expect(alone.waves.map(\.zones) == [["UTC"]])
        #expect(alone.waves.map(\.sendsZoneless) == [true])
        #expect(alone.unknownZones.isEmpty)
    }

    @Test func unknownZonesGoWithTheDefaultZoneAndAreReported() {
        let plan = Self.plan(
            [("Mars/Olympus", 2), ("UTC", 1), ("Test/Eastern", 0)], date: CivilDate(year: 2026, month: 12, day: 1),
            time: "09:00")
        #expect(plan.waves.count == 1)
        #expect(plan.waves[0].zones == ["Mars/Olympus", "UTC"])
        #expect(plan.waves[0].recipients == 3)
        #expect(plan.unknownZones == ["Mars/Olympus"])
    }

    @Test(arguments: 0..<24)
    func everyZoneLandsInExactlyOneWaveAtItsOwnInstant(hour: Int) {
        let audience = Self.zones.zones.keys.sorted().enumerated().map { ($0.element, $0.offset + 1) }
        let date = CivilDate(year: 2026, month: 3, day: 8)
        let time = LocalTime(hour: hour, minute: 30)!
        let plan = Self.plan(audience, date: date, time: time.text, now: instant(2026, 3, 8, 12), late: .sendNow)
        let listed = plan.waves.flatMap(\.zones)
        #expect(listed.sorted() == audience.map(\.0).sorted())
        #expect(plan.recipients == audience.reduce(0) { $0 + $1.1 })
        #expect(zip(plan.waves, plan.waves.dropFirst()).allSatisfy { $0.dueAt < $1.dueAt })
        for wave in plan.waves where wave.dueAt > instant(2026, 3, 8, 12) {
            for zone in wave.zones {
                #expect(Self.zones.zone(zone)!.instant(for: date.at(time)) == wave.dueAt)
            }
        }
    }
}
