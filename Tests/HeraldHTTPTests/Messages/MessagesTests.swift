import HeraldHTTP
import Testing

@Suite struct MessagesTests {
    @Test func headerLookupIgnoresCase() {
        var headers: HTTPHeaders = ["Content-Type": "a", "X-Multi": "1"]
        headers.add("x-multi", "2")
        #expect(headers["content-type"] == "a")
        #expect(headers["CONTENT-TYPE"] == "a")
        #expect(headers["content-typf"] == nil)
        #expect(headers.values(for: "X-MULTI") == ["1", "2"])
        headers.set("X-Multi", "3")
        #expect(headers.values(for: "x-multi") == ["3"])
        headers.remove("CONTENT-type")
        #expect(!headers.contains("Content-Type"))
    }

    @Test func nonLettersDoNotFoldTogether() {
        // "@" and "`" differ only in bit 0x20, as do "[" and "{"; they must not match.
        let headers: HTTPHeaders = ["a@b": "1", "x[y": "2"]
        #expect(headers["a`b"] == nil)
        #expect(headers["x{y"] == nil)
    }

    @Test func requestLowercasesHeaderNames() {
        let request = HTTPRequest(method: .get, path: "/", headers: ["X-Request-Id": "abc"])
        #expect(request.headers.fields.map(\.name) == ["x-request-id"])
        #expect(request.header("X-REQUEST-ID") == "abc")
    }

    @Test func statusKnowsBodiesAndReasons() {
        #expect(!HTTPStatus.noContent.allowsBody)
        #expect(HTTPStatus.ok.allowsBody)
        #expect(HTTPStatus.contentTooLarge.reasonPhrase == "Content Too Large")
    }

    @Test func responseHelpersSetContentTypes() throws {
        #expect(HTTPResponse.text("hi").headers["content-type"] == "text/plain; charset=utf-8")
        #expect(try HTTPResponse.json(["a": 1]).headers["content-type"] == "application/json")
        #expect(try HTTPResponse.json(["a": 1]).bodyText == #"{"a":1}"#)
        #expect(HTTPResponse.noContent().status == .noContent)
        #expect(HTTPResponse.json(JSONValue.array([.null])).bodyText == "[null]")
    }
}
