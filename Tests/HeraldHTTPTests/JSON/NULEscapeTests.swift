import Testing

@testable import HeraldHTTP

@Suite("NUL escapes in JSON bodies")
struct NULEscapeTests {
    @Test(
        arguments: [
            (#"{"id":"a\u0000b"}"#, true),
            (#"{"id":"\u0000"}"#, true),
            (#"{"id":"a\\u0000b"}"#, false),
            (#"{"id":"a\\\u0000"}"#, true),
            (#"{"id":"\u00001"}"#, true),
            (#"{"id":"\u0001"}"#, false),
            (#"{"id":"plain"}"#, false),
            (#"{"id":"\"}"#, false),
        ])
    func detection(json: String, expected: Bool) {
        #expect(NULEscape.isPresent(in: Array(json.utf8)) == expected)
    }

    @Test func decodingRefusesNULWith422() {
        struct Body: Decodable { var id: String }
        #expect(throws: HTTPError.self) { try JSONCoders.decode(Body.self, from: Array(#"{"id":"a\u0000"}"#.utf8)) }
        do {
            _ = try JSONCoders.decode(Body.self, from: Array(#"{"id":"a\u0000"}"#.utf8))
        } catch {
            #expect(error.status == .unprocessableContent)
        }
    }
}
