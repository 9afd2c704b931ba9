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
            #expect(error.pointer == "/id")
        }
    }

    @Test(
        arguments: [
            (#"{"a":"x","b":{"c":["ok","n\u0000"]}}"#, "/b/c/1"),
            (#"{"a/b":"\u0000"}"#, "/a~1b"),
            (#"{"k\u0000":1}"#, "/k\u{0}"),
            (#"["\u0000"]"#, "/0"),
            (#""\u0000""#, ""),
        ])
    func theProblemNamesTheFirstMemberHoldingNUL(json: String, pointer: String) {
        let problem = NULEscape.problem(in: Array(json.utf8))
        #expect(problem.status == .unprocessableContent)
        #expect(problem.pointer == pointer)
        #expect(problem.errors.map(\.pointer) == [pointer])
    }
}
