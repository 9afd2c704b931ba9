import Foundation
import Testing

@testable import HeraldCore

@Suite struct ISO8601Tests {
    static let foundationPlain = Date.ISO8601FormatStyle()
    static let foundationFractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func foundation(_ text: String) -> Date? {
        (try? foundationPlain.parse(text)) ?? (try? foundationFractional.parse(text))
    }

    /// An instant as Foundation writes it, in the style `ISO8601.format` chooses.
    static func foundation(_ instant: Date) -> String {
        let seconds = instant.timeIntervalSince1970
        return instant.formatted(seconds.rounded(.down) == seconds ? foundationPlain : foundationFractional)
    }

    /// A fixed sequence of pseudo-random numbers, so every run checks the same values.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 1
        }
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

    /// Instants of 1970–9999 are written as Foundation writes them (whole seconds, exact milliseconds and any
    /// fraction at all, cut to milliseconds), and the others are still written by Foundation.
    @Test func theOwnFormIsWrittenAsFoundationWritesIt() {
        let foundation = { (instant: Date) in Self.foundation(instant) }
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for index in 0..<30_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let seconds: Double
            switch index % 3 {
            case 0: seconds = Double((state >> 1) % 253_402_300_800)
            case 1: seconds = Double((state >> 1) % 253_402_300_800_000) / 1_000
            default: seconds = Double(state >> 11) / Double(1 << 53) * 253_402_300_800
            }
            // A `Date` keeps its time from 2001, so the instant's seconds since 1970 are not always `seconds`.
            let instant = Date(timeIntervalSince1970: seconds)
            #expect(ISO8601.format(instant) == foundation(instant), "\(seconds)")
            #expect(ISO8601.formatOwnForm(instant) != nil)
        }
        for seconds in [0, 0.001, 0.9999, 1_796_115_600.25, 253_402_300_799, 253_402_300_799.999] {
            #expect(
                ISO8601.format(Date(timeIntervalSince1970: seconds)) == foundation(Date(timeIntervalSince1970: seconds))
            )
        }
        for seconds in [-0.5, -86_400, 253_402_300_800] {
            #expect(ISO8601.formatOwnForm(Date(timeIntervalSince1970: seconds)) == nil)
            #expect(
                ISO8601.format(Date(timeIntervalSince1970: seconds)) == foundation(Date(timeIntervalSince1970: seconds))
            )
        }
    }

    /// The dates Herald formats are mostly read from text or taken from the clock, and a `Date` holds seconds since
    /// 2001: those are written as Foundation writes them too, where the seconds since 1970 (rounded to a `Double`)
    /// would carry a fraction over a millisecond or a whole second.
    @Test func parsedAndClockDatesAreWrittenAsFoundationWritesThem() throws {
        var generator = Generator(state: 0x1234_5678_9ABC_DEF1)
        for _ in 0..<20_000 {
            let milliseconds = Int(generator.next() % 253_402_300_799_000)
            let text = ISO8601.format(Date(timeIntervalSince1970: Double(milliseconds / 1_000)))
                .replacingOccurrences(of: "Z", with: String(format: ".%03dZ", milliseconds % 1_000))
            let parsed = try #require(ISO8601.parse(text))
            let old = try #require(Self.foundation(text))
            #expect(ISO8601.format(parsed) == Self.foundation(old), "\(text)")
        }
        for _ in 0..<20_000 {
            // Around now and the coming decades, as `Date()` gives them, to the last bit.
            let sinceReference = 700_000_000 + Double(generator.next() % (1 << 53)) / Double(1 << 53) * 400_000_000
            let instant = Date(timeIntervalSinceReferenceDate: sinceReference)
            #expect(ISO8601.format(instant) == Self.foundation(instant), "\(sinceReference)")
        }
        for sinceReference in [
            799_999_999.999_999_9, 794_351_101.270_000_1, 825_879_515.525, 799_999_999.999_999_9.nextDown,
            800_000_000.0.nextDown, 800_000_000, 800_000_000.0.nextUp, -978_307_200, -978_307_199.999,
        ] {
            let instant = Date(timeIntervalSinceReferenceDate: sinceReference)
            #expect(ISO8601.format(instant) == Self.foundation(instant), "\(sinceReference)")
        }
        #expect(ISO8601.format(try #require(ISO8601.parse("2053-06-06T10:01:24.733Z"))) == "2053-06-06T10:01:24.733Z")
    }

    /// Within 2^22 seconds of 2001-01-01 a fraction built directly can differ from Foundation's in its last bit,
    /// so those texts are read by Foundation; just outside, directly, and the same.
    @Test func textsNearTheReferenceDateAreReadAsFoundationReadsThem() throws {
        var generator = Generator(state: 0x0F1E_2D3C_4B5A_6978)
        let reference = Date(timeIntervalSinceReferenceDate: 0).timeIntervalSince1970
        let window = ISO8601.exactFractionsFrom
        for index in 0..<20_000 {
            let offset = Double(generator.next() % UInt64(2 * window * 1_000)) / 1_000 - window
            let edge = index.isMultiple(of: 4) ? (offset < 0 ? -window - 1 : window) + offset / window : offset
            let text = ISO8601.format(Date(timeIntervalSince1970: reference + edge))
            let expected = try #require(Self.foundation(text))
            let parsed = try #require(ISO8601.parse(text))
            #expect(
                parsed.timeIntervalSinceReferenceDate.bitPattern == expected.timeIntervalSinceReferenceDate.bitPattern,
                "\(text)")
            if text.count == 24 && abs(expected.timeIntervalSinceReferenceDate) < window - 1 {
                #expect(ISO8601.parseOwnForm(text) == nil, "\(text)")
            }
        }
        #expect(ISO8601.parseOwnForm("2001-01-11T21:11:26.180Z") == nil)
        #expect(ISO8601.parseOwnForm("2001-01-11T21:11:26Z") != nil)
        #expect(ISO8601.parseOwnForm("2001-03-01T00:00:00.500Z") != nil)
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
