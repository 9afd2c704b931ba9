import Testing

@testable import HeraldCore

@Suite struct DecimalDigitsTests {
    @Test func digitsAreThoseOfTheNumbersText() {
        for value in [0, 5, -5, 10, 99, 100, -1_000, 123_456_789, 9_999_999_999, 10_000_000_000, Int.max, Int.min] {
            var bytes: [UInt8] = [0x41]
            DecimalDigits.append(value, to: &bytes)
            #expect(bytes == [0x41] + Array(String(value).utf8))
        }
    }
}
