import Foundation
import HeraldCore
import HeraldHTTP
import HeraldTestSupport
import Synchronization
import Testing

@Suite struct RequestDispatcherTests {
    let logs = LogCapture()
    var dispatcher: RequestDispatcher { sampleDispatcher(logs: logs) }

    private func problem(_ response: HTTPResponse) throws -> JSONValue {
        #expect(response.headers["Content-Type"] == "application/problem+json")
        return try JSONValue(parsing: response.body)
    }

    private func bearer(_ key: String) -> HTTPHeaders {
        ["Authorization": "Bearer \(key)"]
    }

    @Test func publicRouteAnswersWithRequestID() {
        let response = dispatcher.respond(
            to: HTTPRequest(method: .get, path: "/health", requestID: "r-1"))
        #expect(response.status == .ok)
        #expect(response.bodyText == "ok")
        #expect(response.headers["X-Request-Id"] == "r-1")
    }

    @Test func unknownPathIsNotFoundProblem() throws {
        let response = dispatcher.respond(
            to: HTTPRequest(method: .get, path: "/v1/nothing", requestID: "r-2"))
        #expect(response.status == .notFound)
        let body = try problem(response)
        #expect(body["type"] == .string("urn:herald:problem:not-found"))
        #expect(body["status"] == .int(404))
        #expect(body["instance"] == .string("/v1/nothing"))
        #expect(body["request_id"] == .string("r-2"))
    }

    @Test func wrongMethodIsMethodNotAllowedWithAllow() throws {
        let response = dispatcher.respond(to: HTTPRequest(method: .delete, path: "/health"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD")
        #expect(try problem(response)["type"] == .string("urn:herald:problem:method-not-allowed"))
    }

    @Test func malformedPathIsBadRequest() {
        #expect(
            dispatcher.respond(to: HTTPRequest(method: .get, path: "/v1/users/%G1")).status == .badRequest
        )
    }

    @Test(
        arguments: [
            (nil, 401), ("Bearer", 401), ("Bearer ", 401), ("Basic dXNlcjpwYXNz", 401),
            ("Bearer unknown-key", 401),
            ("Bearer has space", 401), ("Bearer =abc", 401), ("Bearer \(TestKeys.events)", 200),
            ("bearer \(TestKeys.events)", 200), ("Bearer \(TestKeys.none)", 200),
        ] as [(String?, Int)])
    func anyKeyRouteChecksTheKey(authorization: String?, status: Int) throws {
        var headers = HTTPHeaders()
        if let authorization { headers.add("Authorization", authorization) }
        let response = dispatcher.respond(
            to: HTTPRequest(method: .get, path: "/v1/categories/c", headers: headers))
        #expect(response.status.rawValue == status)
        if status == 401 {
            #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            #expect(try problem(response)["status"] == .int(401))
        }
    }

    @Test(arguments: [
        (TestKeys.admin, 204), (TestKeys.events, 403), (TestKeys.none, 403),
    ])
    func scopedRouteChecksTheScope(key: String, status: Int) throws {
        let response = dispatcher.respond(
            to: HTTPRequest(method: .delete, path: "/v1/categories/c", headers: bearer(key)))
        #expect(response.status.rawValue == status)
        if status == 403 {
            #expect(try problem(response)["type"] == .string("urn:herald:problem:forbidden"))
        }
    }

    @Test func handlerSeesParametersAndPrincipal() throws {
        let response = dispatcher.respond(
            to: HTTPRequest(
                method: .get, path: "/v1/categories/wel%20come", headers: bearer(TestKeys.events)))
        let body = try JSONValue(parsing: response.body)
        #expect(body["id"] == .string("wel come"))
        #expect(body["route"] == .string("/v1/categories/{id}"))
        #expect(body["key"] == .string("key-events"))
    }

    @Test func outcomeNamesRouteAndPrincipal() {
        let outcome = dispatcher.dispatch(
            HTTPRequest(method: .get, path: "/v1/users/9", headers: bearer(TestKeys.admin)))
        #expect(outcome.route == "/v1/users/{id}")
        #expect(outcome.principal?.keyID == "key-admin")
        #expect(dispatcher.dispatch(HTTPRequest(method: .get, path: "/zzz")).route == nil)
    }

    @Test func unexpectedErrorIsOpaque500AndLogged() throws {
        let response = dispatcher.respond(
            to: HTTPRequest(method: .get, path: "/boom", requestID: "r-500"))
        #expect(response.status == .internalServerError)
        #expect(!response.bodyText.contains("hunter2"))
        let body = try problem(response)
        #expect(body["request_id"] == .string("r-500"))
        #expect(body["type"] == .string("urn:herald:problem:internal-error"))
        let line = try #require(logs.all.first { $0.contains("\"request.id\":\"r-500\"") })
        #expect(line.contains("\"level\":\"error\""))
        #expect(line.contains("SampleFailure"))
    }

    @Test func httpErrorFromHandlerKeepsItsStatus() throws {
        let response = dispatcher.respond(to: HTTPRequest(method: .get, path: "/teapot"))
        #expect(response.status == .conflict)
        let body = try problem(response)
        #expect(body["title"] == .string("Already exists"))
        #expect(body["detail"] == .string("It is there."))
    }

    @Test func jsonBodyRoundTrips() throws {
        let request = HTTPRequest(
            method: .post, path: "/v1/echo",
            headers: ["Authorization": "Bearer \(TestKeys.events)", "Content-Type": "application/json"],
            body: Array(
                #"{"user_id":7,"quiet_hours":{"start":"22:00","end":"07:00"},"mode":"silent"}"#.utf8))
        let response = dispatcher.respond(to: request)
        #expect(response.status == .created)
        #expect(response.headers["Content-Type"] == "application/json")
        let echoed = try JSONCoders.decoder.decode(SampleBody.self, from: Data(response.body))
        #expect(echoed.userId == 7)
        #expect(echoed.quietHours?.end == "07:00")
        #expect(response.bodyText.contains("\"quiet_hours\""))
    }

    @Test(arguments: [
        (#"{"user_id": 1"#, "application/json", 400, "malformed-json"),
        ("", "application/json", 400, "malformed-json"),
        (#"{"user_id": 1}"#, "text/plain", 415, "unsupported-content-type"),
        (#"{"user_id": "1"}"#, "application/json", 422, "validation-failed"),
        (#"{"user_id": 1}"#, "application/merge-patch+json", 201, ""),
        (#"{"user_id": 1}"#, "application/json; charset=utf-8", 201, ""),
    ])
    func jsonBodyErrors(body: String, contentType: String, status: Int, type: String) throws {
        let request = HTTPRequest(
            method: .post, path: "/v1/echo",
            headers: ["Authorization": "Bearer \(TestKeys.admin)", "Content-Type": contentType],
            body: Array(body.utf8))
        let response = dispatcher.respond(to: request)
        #expect(response.status.rawValue == status)
        if !type.isEmpty {
            #expect(try problem(response)["type"] == .string("urn:herald:problem:" + type))
        }
    }

    @Test func queryItemsAreDecoded() throws {
        let request = HTTPRequest(method: .get, target: "/whoami?q=a+b%26c&x", requestID: "rq")
        #expect(
            request.queryItems == [QueryItem(name: "q", value: "a b&c"), QueryItem(name: "x", value: "")])
        let body = try JSONValue(parsing: dispatcher.respond(to: request).body)
        #expect(body["q"] == .string("a b&c"))
    }

    @Test(arguments: [
        ("/a?b=1", "/a", "b=1"), ("/a", "/a", ""), ("http://host:8080/x?y", "/x", "y"),
        ("/p#frag", "/p", ""),
        ("https://host", "/", ""),
    ])
    func requestTargetSplits(target: String, path: String, query: String) {
        let request = HTTPRequest(method: .get, target: target)
        #expect(request.path == path)
        #expect(
            request.queryItems.map { $0.value.isEmpty ? $0.name : "\($0.name)=\($0.value)" }.joined(
                separator: "&") == query)
    }
}

/// An authenticator that counts its lookups and remembers one valid key.
final class CountingAuthenticator: Authenticator {
    private let count = Mutex(0)
    var lookups: Int { count.withLock { $0 } }
    let valid: [String: Principal]

    init(secrets: [String: Principal]) {
        valid = Dictionary(uniqueKeysWithValues: secrets.map { (SHA256.hex($0.key), $0.value) })
    }

    func principal(forKeyHash keyHash: String) throws -> Principal? {
        count.withLock { $0 += 1 }
        return valid[keyHash]
    }

    func knownPrincipal(forKeyHash keyHash: String) throws -> Principal? { valid[keyHash] }
}

@Suite struct FailedAuthenticationLimitTests {
    let authenticator = CountingAuthenticator(secrets: [
        TestKeys.admin: Principal(keyID: "key-admin", scopes: [.admin])
    ])

    var dispatcher: RequestDispatcher {
        RequestDispatcher(
            router: sampleRouter(), authenticator: authenticator, logger: LogCapture().logger,
            authFailures: AuthFailureLimiter(limit: .init(count: 3, period: .seconds(60))))
    }

    @Test func anAddressThatKeepsGuessingIsAnswered429WithoutALookup() throws {
        let dispatcher = dispatcher
        func get(_ key: String, from address: String) -> HTTPResponse {
            dispatcher.respond(
                to: HTTPRequest(
                    method: .get, path: "/v1/users/ana", headers: ["Authorization": "Bearer \(key)"],
                    remoteAddress: address))
        }
        for guess in 0..<3 { #expect(get("hk_guess_\(guess)", from: "10.0.0.9").status == .unauthorized) }
        #expect(authenticator.lookups == 3)
        let refused = get("hk_guess_3", from: "10.0.0.9")
        #expect(refused.status == .tooManyRequests)
        #expect(refused.headers["Retry-After"] == "20")
        let problem = try JSONValue(parsing: refused.body)
        #expect(problem["type"] == .string("urn:herald:problem:too-many-failed-authentications"))
        #expect(authenticator.lookups == 3)
        // A key known to be valid still gets in from that address, and other addresses are not affected.
        #expect(get(TestKeys.admin, from: "10.0.0.9").status == .ok)
        #expect(get("hk_guess_4", from: "10.0.0.10").status == .unauthorized)
    }

    @Test func withoutALimitNothingIsRefused() {
        let unlimited = RequestDispatcher(
            router: sampleRouter(), authenticator: authenticator, logger: LogCapture().logger)
        for guess in 0..<10 {
            let response = unlimited.respond(
                to: HTTPRequest(
                    method: .get, path: "/v1/users/ana", headers: ["Authorization": "Bearer hk_\(guess)"],
                    remoteAddress: "10.0.0.9"))
            #expect(response.status == .unauthorized)
        }
    }
}

/// A credential store that cannot answer, as a database that is busy or unreachable.
struct UnavailableAuthenticator: Authenticator {
    struct Down: Error {}

    func principal(forKeyHash keyHash: String) throws -> Principal? { throw Down() }
    func knownPrincipal(forKeyHash keyHash: String) throws -> Principal? { throw Down() }
}

@Suite struct AdmissionTests {
    let logs = LogCapture()

    func dispatcher(dependencyProblem: @escaping @Sendable (any Error) -> HTTPError?) -> RequestDispatcher {
        RequestDispatcher(
            router: sampleRouter(), authenticator: UnavailableAuthenticator(), logger: logs.logger,
            dependencyProblem: dependencyProblem)
    }

    /// When the keys cannot be looked up, the request ends on its headers with the dependency's problem: the
    /// server never holds the body of a caller it could not check.
    @Test func aCredentialStoreThatFailsEndsTheRequestOnItsHeaders() throws {
        let busy = HTTPError(
            status: .serviceUnavailable, type: "database-unavailable", detail: "busy", headers: ["Retry-After": "1"])
        let head = HTTPRequest(
            method: .post, path: "/v1/echo", headers: ["Authorization": "Bearer \(TestKeys.admin)"], requestID: "r-9")
        guard case .refused(let outcome) = dispatcher(dependencyProblem: { _ in busy }).admit(head) else {
            Issue.record("admitted a caller that could not be checked")
            return
        }
        #expect(outcome.response.status == .serviceUnavailable)
        #expect(outcome.response.headers["Retry-After"] == "1")
        #expect(outcome.response.headers["X-Request-Id"] == "r-9")
        #expect(outcome.route == "/v1/echo")
        #expect(logs.all.contains { $0.contains("dependency unavailable") })

        guard case .refused(let opaque) = dispatcher(dependencyProblem: { _ in nil }).admit(head) else {
            Issue.record("admitted a caller that could not be checked")
            return
        }
        #expect(opaque.response.status == .internalServerError)
    }

    /// A public route needs no lookup, so it is admitted however the store fares.
    @Test func aPublicRouteIsAdmittedWithoutALookup() {
        let admission = dispatcher(dependencyProblem: { _ in nil }).admit(HTTPRequest(method: .get, path: "/health"))
        guard case .admitted(let principal) = admission else {
            Issue.record("a public route was refused")
            return
        }
        #expect(principal == nil)
    }
}
