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

    @Test func bytesAreEscapedAsTheStringTheyDecodeTo() throws {
        let samples: [[UInt8]] = [
            Array(#"{"aps":{"alert":{"title":"Ana","body":"hello number 600"}}}"#.utf8),
            Array("tab\there, backslash \\ and\nnewline\r".utf8),
            Array("é ü 😀 and a tab\t".utf8),
            [],
            [0x61, 0xFF, 0x62],  // not UTF-8: repaired
            [0xE2, 0x82],  // a sequence cut short
            [0x01, 0x0B, 0x0C, 0x7F],  // control bytes COPY reads as they are
        ]
        for sample in samples {
            var fromBytes: [UInt8] = []
            var fromString: [UInt8] = []
            try CopyWriter.escape(utf8: sample, into: &fromBytes)
            try CopyWriter.escape(String(decoding: sample, as: UTF8.self), into: &fromString)
            #expect(fromBytes == fromString, "\(sample)")
        }
        var ignored: [UInt8] = []
        #expect(throws: PostgresError.self) { try CopyWriter.escape(utf8: [0x61, 0x00], into: &ignored) }
    }
}
