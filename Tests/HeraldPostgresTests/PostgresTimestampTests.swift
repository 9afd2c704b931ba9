import Foundation
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

    @Test(arguments: ["", "2026-13-01 00:00:00+00", "2026-01-01", "2026-01-01 00:00:00+", "tomorrow"])
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

    @Test func yearsBeforeOneUseTheBCSuffix() throws {
        let text = "0044-03-15 12:00:00+00 BC"
        let date = try #require(PostgresTimestamp.parse(text))
        #expect(PostgresTimestamp.format(date) == "0044-03-15 12:00:00.000000+00 BC")
    }

    @Test func infinityMapsToDistantDates() {
        #expect(PostgresTimestamp.parse("infinity") == .distantFuture)
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
