import Foundation
import HeraldCore
import Testing

@testable import HeraldPostgres

@Suite struct PostgresTimestampTests {
    @Test(arguments: [
        ("2026-03-29 01:00:00+00", 1_774_746_000.0),
        ("2026-03-29 03:00:00+02", 1_774_746_000.0),
        ("2026-03-28 20:30:00-04:30", 1_774_746_000.0),
        ("1970-01-01 00:00:00.5+00", 0.5),
        ("1969-12-31 23:59:59.999999+00", -0.000_001),
        ("2000-02-29 12:00:00+05:45:30", 951_804_870.0),
    ])
    func parsesServerOutput(text: String, seconds: Double) throws {
        let date = try #require(PostgresTimestamp.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_000_5)
    }

    @Test(arguments: [
        "", "2026-13-01 00:00:00+00", "2026-01-01", "2026-01-01 00:00:00+", "tomorrow", "infinity ", "infinit",
        "-infinityx", "--infinity", "+infinity", "2026-01-01 00:00:00+00x",
    ])
    func rejectsMalformedText(text: String) {
        #expect(PostgresTimestamp.parse(text) == nil)
    }

    @Test func formatThenParseIsIdentityToTheMicrosecond() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let micros = Int64.random(in: -62_135_596_800_000_000...253_402_300_799_999_999, using: &generator)
            let date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
            let parsed = try #require(PostgresTimestamp.parse(PostgresTimestamp.format(date)))
            #expect(abs(parsed.timeIntervalSince(date)) < 0.000_002, "\(PostgresTimestamp.format(date))")
        }
    }

    /// The text written digit by digit is the text of the plain definition below, for instants from 4713 BC to
    /// year 97,000, and at the edges of a year, a day and a second.
    @Test func formatWritesThePlainDefinitionsText() {
        var generator = SystemRandomNumberGenerator()
        var micros = (0..<20_000).map { _ in
            Int64.random(in: -210_866_803_200_000_000...3_000_000_000_000_000_000, using: &generator)
        }
        micros += [
            0, -1, 1, 999_999, -62_135_596_800_000_000, -62_135_596_800_000_001, 253_402_300_799_999_999,
            253_402_300_800_000_000,
        ]
        for value in micros {
            let date = Date(timeIntervalSince1970: Double(value) / 1_000_000)
            #expect(PostgresTimestamp.format(date) == Self.plainFormat(date))
        }
    }

    /// `YYYY-MM-DD HH:MM:SS.ffffff+00`, with ` BC` for years before 1, each field padded with zeros.
    static func plainFormat(_ date: Date) -> String {
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        let micros = date.wholeMicrosecondsSince1970
        let days = Int64(CivilCalendar.floorDiv(Int(micros), 86_400_000_000))
        let rest = micros - days * 86_400_000_000
        let civil = CivilCalendar.date(days: Int(days))
        let year = Int64(civil.year)
        let time = [rest / 3_600_000_000, rest / 60_000_000 % 60, rest / 1_000_000 % 60].map { pad($0, 2) }
        return "\(pad(year <= 0 ? 1 - year : year, 4))-\(pad(Int64(civil.month), 2))-\(pad(Int64(civil.day), 2)) "
            + time.joined(separator: ":") + ".\(pad(rest % 1_000_000, 6))+00" + (year <= 0 ? " BC" : "")
    }

    @Test func yearsBeforeOneUseTheBCSuffix() throws {
        let text = "0044-03-15 12:00:00+00 BC"
        let date = try #require(PostgresTimestamp.parse(text))
        #expect(PostgresTimestamp.format(date) == "0044-03-15 12:00:00.000000+00 BC")
    }

    @Test func infinityMapsToDistantDates() {
        #expect(PostgresTimestamp.parse("infinity") == .distantFuture)
        #expect(PostgresTimestamp.parse("-infinity") == .distantPast)
        #expect(PostgresTimestamp.format(.distantPast) == "-infinity")
    }

    @Test func serverAgreesWithOurFormatting() throws {
        let connection = try freshConnection()
        let dates = [Date(timeIntervalSince1970: -12_345_678.25), Date(timeIntervalSince1970: 1_790_000_000.000_001)]
        for date in dates {
            let row = try connection.query(
                Query(name: "test.epoch", sql: "SELECT extract(epoch FROM $1::timestamptz)::float8, $1::timestamptz"),
                [date]
            ).single()
            #expect(abs(try row.double(0) - date.timeIntervalSince1970) < 0.000_001)
            #expect(abs(try row.date(1).timeIntervalSince(date)) < 0.000_001)
        }
    }
}
