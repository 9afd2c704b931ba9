import HeraldCore
import HeraldHTTP
import Testing

@Suite struct ProblemTests {
    @Test func problemDocumentHasTheRFC9457Members() throws {
        let error = HTTPError.invalidFields([
            FieldError(pointer: "/quiet_hours/start", message: "Expected HH:MM."),
            FieldError(pointer: "/locale", message: "Unknown locale."),
        ])
        let response = HTTPResponse.problem(error, instance: "/v1/users/1", requestID: "req-9")
        #expect(response.status == .unprocessableContent)
        #expect(response.headers["content-type"] == "application/problem+json")
        let expected =
            #"{"detail":"2 members are invalid.","errors":["#
            + #"{"detail":"Expected HH:MM.","pointer":"/quiet_hours/start"},"#
            + #"{"detail":"Unknown locale.","pointer":"/locale"}],"#
            + #""instance":"/v1/users/1","pointer":"/quiet_hours/start","request_id":"req-9","status":422,"#
            + #""title":"Validation failed","type":"urn:herald:problem:validation-failed"}"#
        #expect(response.bodyText == expected)
    }

    @Test func errorHeadersReachTheResponse() {
        let response = HTTPResponse.problem(.methodNotAllowed(allowed: [.get, .post]), instance: nil, requestID: "r")
        #expect(response.headers["Allow"] == "GET, POST")
        #expect(!response.bodyText.contains("instance"))
        let unauthorized = HTTPResponse.problem(.unauthorized("no key"), instance: "/x", requestID: "r")
        #expect(unauthorized.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
    }

    @Test func titleDefaultsToTheReasonPhrase() {
        #expect(HTTPError(status: 404, type: "x").title == "Not Found")
        #expect(HTTPError(status: 499, type: "x").title == "Client Error")
        #expect(HTTPError.internalError.detail?.contains("request id") == true)
    }

    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080), ("[::1]:9000", "::1", 9000), ("localhost:0", "localhost", 0),
    ])
    func addressesParse(text: String, host: String, port: Int) throws {
        let parsed = try #require(HTTPServerConfiguration.parseAddress(text))
        #expect(parsed.host == host)
        #expect(Int(parsed.port) == port)
    }

    @Test(arguments: ["8080", "host:", ":80", "1.2.3.4:99999", "::1:80", "[::1]80"])
    func badAddressesAreRejected(text: String) {
        #expect(HTTPServerConfiguration.parseAddress(text) == nil)
    }

    @Test func configurationProblemsAreListedTogether() {
        let configuration = HTTPServerConfiguration(
            host: "example.com", connectionLimit: 0, connectionsPerAddress: 0, idleTimeout: .zero)
        #expect(configuration.validationProblems().count == 3)
        #expect(HTTPServerConfiguration().validationProblems().isEmpty)
    }
}
