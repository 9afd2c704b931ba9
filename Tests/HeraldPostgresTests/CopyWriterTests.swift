import Testing

@testable import HeraldPostgres

@Suite struct CopyWriterTests {
    @Test func textIsEscapedAsCopyReadsIt() throws {
        func escaped(_ text: String) throws -> String {
            var bytes: [UInt8] = []
            try CopyWriter.escape(text, into: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(
            try escaped("plain text, long enough for a few words: é ü 😀")
                == "plain text, long enough for a few words: é ü 😀")
        #expect(try escaped(#"{"body":"say \"hi\""}"#) == #"{"body":"say \\"hi\\""}"#)
        #expect(try escaped("a\tb\nc\rd") == #"a\tb\nc\rd"#)
        #expect(try escaped("bell \u{07} stays") == "bell \u{07} stays")
        #expect(throws: PostgresError.self) { try escaped("nul \u{00} inside") }
    }
}

@Suite struct DecimalDigitsTests {
    @Test func digitsAreThoseOfTheNumbersText() {
        for value in [0, 5, -5, 10, 99, 100, -1_000, 123_456_789, Int.max, Int.min, Int(Int32.max) + 1] {
            var bytes: [UInt8] = [0x41]
            DecimalDigits.append(value, to: &bytes)
            #expect(bytes == [0x41] + Array(String(value).utf8))
        }
    }
}
