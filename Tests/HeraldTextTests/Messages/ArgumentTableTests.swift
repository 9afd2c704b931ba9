import Foundation
import HeraldText
import Testing

@Suite("Argument table")
struct ArgumentTableTests {
    @Test func listsNestedArgumentsWithTheirKinds() throws {
        let template = try MessageTemplate.compile(
            pattern: "{g, select, female {{n, plural, one {She has # item from {who}} "
                + "other {She has # items, last at {when, time, short}}}} other {{who}}}",
            locale: "en")
        #expect(template.arguments.map(\.name) == ["g", "n", "who", "when"])
        #expect(template.arguments.map(\.kind) == [.select, .plural, .plain, .time])
        #expect(template.arguments.map(\.isNested) == [false, true, true, true])
    }

    static let kinds: [(String, ArgumentKind)] = [
        ("{x}", .plain), ("{x, number}", .number), ("{x, number, integer}", .number), ("{x, spellout}", .number),
        ("{x, date}", .date), ("{x, date, long}", .date), ("{x, time, short}", .time),
        ("{x, plural, other {#}}", .plural), ("{x, select, other {}}", .select),
        ("{x, selectordinal, other {#}}", .selectOrdinal), ("{x} then {x, number}", .number),
        ("{x, NUMBER}", .number),
    ]

    @Test("kind of an argument", arguments: kinds)
    func kind(pattern: String, expected: ArgumentKind) throws {
        let template = try MessageTemplate.compile(pattern: pattern, locale: "en")
        #expect(template.arguments.count == 1)
        #expect(template.argument(named: "x")?.kind == expected)
    }

    @Test func acceptedValuesFollowTheKind() throws {
        let template = try MessageTemplate.compile(
            pattern: "{n, plural, other {#}} {d, date} {s, select, other {}} {p}", locale: "en")
        let n = try #require(template.argument(named: "n"))
        let d = try #require(template.argument(named: "d"))
        let s = try #require(template.argument(named: "s"))
        let p = try #require(template.argument(named: "p"))
        #expect(n.accepts(.int(1)) && n.accepts(.double(1.5)) && !n.accepts("one") && !n.accepts(.date(Date())))
        #expect(d.accepts(.date(Date())) && !d.accepts(.int(1)))
        #expect(s.accepts("a") && s.accepts(.int(3)) && !s.accepts(.double(1.5)))
        #expect(p.accepts("a") && p.accepts(.int(1)) && p.accepts(.date(Date())))
    }

    @Test func numberedArgumentsAreNamedByTheirNumber() throws {
        let template = try MessageTemplate.compile(pattern: "{0} and {1, number}", locale: "en")
        #expect(template.arguments.map(\.name) == ["0", "1"])
        #expect(try template.format(["0": "a", "1": 2]) == "a and 2")
    }

    @Test func argumentsAreListedOnce() throws {
        let template = try MessageTemplate.compile(
            pattern: "{who} {n, plural, one {{who} once} other {{who} # times}}", locale: "en")
        #expect(template.arguments.map(\.name) == ["who", "n"])
        #expect(template.argument(named: "who")?.isNested == false)
        #expect(template.argument(named: "missing") == nil)
        #expect(template.arguments(missingFrom: ["n", "extra"]) == ["who"])
        #expect(template.arguments(missingFrom: ["n", "who"]).isEmpty)
    }
}
