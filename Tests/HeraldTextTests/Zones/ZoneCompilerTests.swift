import Foundation
import HeraldCore
import Testing

@testable import HeraldText

/// The conversion steps on their own: POSIX footers, ICU rule encodings, the raw/DST split.
@Suite("Zone compiler")
struct ZoneCompilerTests {
    @Test("POSIX TZ strings parse, offsets east-positive")
    func parsesFooters() throws {
        let ny = try POSIXZoneRule(parsing: "EST5EDT,M3.2.0,M11.1.0")
        #expect(ny.standardOffset == -18_000)
        #expect(ny.daylight?.offset == -14_400)
        #expect(
            ny.daylight?.start == .init(date: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200))
        let gaza = try POSIXZoneRule(parsing: "EET-2EEST,M3.4.4/50,M10.4.4/50")
        #expect(gaza.daylight?.start.time == 50 * 3600)
        let quoted = try POSIXZoneRule(parsing: "<+0545>-5:45")
        #expect(quoted.standardOffset == 20_700 && quoted.daylight == nil)
        let nuuk = try POSIXZoneRule(parsing: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        #expect(nuuk.daylight?.start.time == -3600)
        for bad in ["", "E5", "EST", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.2.0", "<+03"] {
            #expect(throws: TimeZoneDataError.self) { try POSIXZoneRule(parsing: bad) }
        }
    }

    @Test(
        "Footers become ICU rules that match them every year 1900-2400",
        arguments: [
            "EST5EDT,M3.2.0,M11.1.0", "CET-1CEST,M3.5.0,M10.5.0/3", "<-02>2<-01>,M3.5.0/-1,M10.5.0/0",
            "EET-2EEST,M3.4.4/50,M10.4.4/50", "IST-2IDT,M3.4.4/26,M10.5.0",
            "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0",
            "EET-2EEST,M4.5.5/0,M10.5.4/24", "<-04>4<-03>,M9.1.6/24,M4.1.6/24",
            "<+00>0<+02>-2,M3.5.0/1,M10.5.0/3",
            "XXX3YYY,J60/2,J300/2", "XXX3YYY,10/2,J300/2",
        ])
    func convertsRules(footer: String) throws {
        let posix = try POSIXZoneRule(parsing: footer)
        let rule = try #require(ICUFinalRule(posix: posix))
        #expect(rule.matches(posix))
        #expect((0...86_400).contains(rule.start.time) && (0...86_400).contains(rule.end.time))
    }

    @Test("Rules ICU cannot express are refused (and then written out as transitions)")
    func refusesInexpressible() throws {
        // Last Thursday + 3 days can fall into the next month.
        let posix = try POSIXZoneRule(parsing: "XXX3YYY,M3.5.4/74,M10.5.0")
        #expect(ICUFinalRule(posix: posix) == nil)
        // Permanent DST (zic's encoding) has no changes at all.
        #expect(try POSIXZoneRule(parsing: "XXX3YYY,0/0,J365/25").isPermanentDaylight)
    }

    @Test("Negative DST footers are turned round")
    func flipsNegativeDaylight() throws {
        let dublin = ZoneCompiler.positiveDaylight(
            try POSIXZoneRule(parsing: "IST-1GMT0,M10.5.0,M3.5.0/1"))
        #expect(dublin.standardOffset == 0 && dublin.daylight?.offset == 3600)
        #expect(
            dublin.daylight?.start
                == .init(date: .monthWeekDay(month: 3, week: 5, weekday: 0), time: 3600))
        let rule = try #require(ICUFinalRule(posix: dublin))
        #expect(rule.savings == 3600 && rule.standardOffset == 0)
    }

    @Test("Raw/DST split: savings from neighbours, negative DST turned round, totals kept")
    func splitsOffsets() {
        typealias T = TZifFile.LocalTimeType
        // Dublin-like: IST standard (+1) with a GMT "DST" (0) in winter.
        let dublin: [T] = [
            T(utcOffset: -1521, isDST: false), T(utcOffset: 3600, isDST: false),
            T(utcOffset: 0, isDST: true),
            T(utcOffset: 3600, isDST: false), T(utcOffset: 0, isDST: true),
            T(utcOffset: 3600, isDST: false),
        ]
        let split = ZoneCompiler.splitOffsets(dublin)
        #expect(split.map(\.total) == dublin.map(\.utcOffset))
        #expect(split.allSatisfy { $0.dst >= 0 })
        #expect(split[2] == .init(raw: 0, dst: 0) && split[3] == .init(raw: 0, dst: 3600))
        #expect(
            split[1] == .init(raw: 3600, dst: 0), "not enclosed by two negative periods: stays standard")
        // Standard offset changing at the moment DST starts: the plausible saving wins.
        let shifted: [T] = [
            T(utcOffset: 3600, isDST: false), T(utcOffset: 10_800, isDST: true),
            T(utcOffset: 7200, isDST: false),
        ]
        #expect(ZoneCompiler.splitOffsets(shifted)[1] == .init(raw: 7200, dst: 3600))
        // A DST flag without an offset change counts as a one-hour saving.
        let flagOnly: [T] = [T(utcOffset: 7200, isDST: false), T(utcOffset: 7200, isDST: true)]
        #expect(ZoneCompiler.splitOffsets(flagOnly)[1] == .init(raw: 3600, dst: 3600))
    }

    @Test("Final year: the earliest year from which the rule reproduces the explicit transitions")
    func finalYear() throws {
        let source = try TimeZoneSource.load(from: TimeZoneData.defaultSourceDirectory)
        var compiler = ZoneCompiler()
        let newYork = try compiler.compile(source.tzif("America/New_York"), name: "America/New_York")
        #expect(newYork.final?.year == 2007)
        let paris = try compiler.compile(source.tzif("Europe/Paris"), name: "Europe/Paris")
        #expect(paris.final?.year == 1996)
        let tokyo = try compiler.compile(source.tzif("Asia/Tokyo"), name: "Asia/Tokyo")
        #expect(tokyo.final == nil)
        var expanding = ZoneCompiler(forceExpansion: true)
        let expanded = try expanding.compile(source.tzif("America/New_York"), name: "America/New_York")
        #expect(expanded.final == nil)
        #expect(ZoneCompiler.yearOf(expanded.transitions.last!.at) == 2100)
    }

    @Test("TZif files parse with their footer; version 1 and garbage are refused")
    func parsesTZif() throws {
        let data = try #require(
            FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin"))
        let file = try TZifFile(data: data, name: "Europe/Berlin")
        #expect(file.footer == "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(file.transitions == file.transitions.sorted())
        #expect(file.types[0].utcOffset == 3208)  // local mean time before 1893
        #expect(throws: TimeZoneDataError.self) { try TZifFile(data: Data("nope".utf8), name: "x") }
        var v1 = data
        v1[4] = 0
        #expect(throws: TimeZoneDataError.self) { try TZifFile(data: v1, name: "x") }
        #expect(throws: TimeZoneDataError.self) { try TZifFile(data: data.prefix(200), name: "x") }
    }
}
