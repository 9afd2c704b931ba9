import Foundation
import Testing

@testable import HeraldCore

@Suite struct ISO8601Tests {
    static let foundationPlain = Date.ISO8601FormatStyle()
    static let foundationFractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func foundation(_ text: String) -> Date? {
        (try? foundationPlain.parse(text)) ?? (try? foundationFractional.parse(text))
    }

    /// Herald's own form, read directly, gives exactly the `Date` Foundation gives, over instants from 1970 to
    /// 9999 with and without milliseconds (a fixed generator, so every run checks the same 20,000).
    @Test func theOwnFormReadsAsFoundationReadsIt() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let milliseconds = Int64(bitPattern: state >> 1) % 253_402_300_799_000
            let instant = Date(
                timeIntervalSince1970: index.isMultiple(of: 2)
                    ? Double(milliseconds / 1_000) : Double(milliseconds) / 1_000)
            let text = ISO8601.format(instant)
            let own = try #require(ISO8601.parseOwnForm(text), "\(text)")
            let expected = try #require(Self.foundation(text))
            #expect(own.timeIntervalSinceReferenceDate.bitPattern == expected.timeIntervalSinceReferenceDate.bitPattern)
        }
        #expect(ISO8601.parseOwnForm("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(ISO8601.parseOwnForm("2028-02-29T23:59:59.999Z") == Self.foundation("2028-02-29T23:59:59.999Z"))
        #expect(ISO8601.parseOwnForm("9999-12-31T23:59:59Z") == Self.foundation("9999-12-31T23:59:59Z"))
    }

    /// Every other text goes to Foundation: offsets, other fractions, years before 1970, and dates or times out
    /// of range, so `parse` answers for them exactly as before.
    @Test func otherTextsAreLeftToFoundation() {
        let others = [
            "2026-12-01T10:00:00+01:00", "2026-12-01T09:00:00.5Z", "2026-12-01T09:00:00.123456Z",
            "1969-12-31T23:59:59Z", "2026-02-29T00:00:00Z", "2026-04-31T12:00:00Z", "2026-12-01T24:00:00Z",
            "2026-12-01T23:60:00Z", "2026-12-01T23:59:60Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
            "2026-12-01t09:00:00Z", "2026-12-01T09:00:00z", "2026-12-01 09:00:00Z", "2026-12-01T09:00:0aZ",
            "+026-12-01T09:00:00Z", "2026-12-01T09:00:00.12xZ", "2026-12-01", "", "not a date",
        ]
        for text in others {
            #expect(ISO8601.parseOwnForm(text) == nil, "\(text)")
            #expect(ISO8601.parse(text) == Self.foundation(text), "\(text)")
        }
    }
}
