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
