import Dispatch
import Foundation
import HeraldHTTP
import HeraldObservability
import HeraldTestSupport
import Synchronization
import Testing

/// Starts a real server on a free port for each test and stops it afterwards.
final class RunningServer {
    let server: HTTPServer
    let logs = LogCapture()
    let metrics = Metrics()
    let port: UInt16

    init(
        maxBodyBytes: Int = 1 << 20, connectionsPerAddress: Int = 256, idleTimeout: Duration = .seconds(30),
        headerTimeout: Duration = .seconds(10), minimumBodyRate: Int = 16 * 1024,
        authenticator: any Authenticator = TestKeys.authenticator, extraRoutes: (inout Router) -> Void = { _ in }
    ) throws {
        let router = sampleRouter(extra: extraRoutes)
        let logger = logs.logger
        let dispatcher = RequestDispatcher(router: router, authenticator: authenticator, logger: logger)
        server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: "127.0.0.1", port: 0, connectionsPerAddress: connectionsPerAddress, idleTimeout: idleTimeout,
                headerTimeout: headerTimeout, minimumBodyRate: minimumBodyRate, maxBodyBytes: maxBodyBytes),
            dispatcher: dispatcher, logger: logger, metrics: metrics)
        try server.start()
        port = try #require(server.port)
    }

    deinit {
        server.stop(timeout: .seconds(2))
    }

    func client() throws -> RawHTTPClient {
        try RawHTTPClient(port: port)
    }
}

@Suite struct HTTPServerTests {
    @Test func servesOnTheBoundPort() throws {
        let running = try RunningServer()
        #expect(running.port != 0)
        let response = try running.client().request("GET", "/health")
        #expect(response.status == 200)
        #expect(response.text == "ok")
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.header("X-Request-Id")?.count == 24)
    }

    @Test func unknownRouteIs404Problem() throws {
        let running = try RunningServer()
        let response = try running.client().request("GET", "/v1/nope")
        #expect(response.status == 404)
        #expect(response.header("Content-Type") == "application/problem+json")
        let body = try JSONValue(parsing: response.body)
        #expect(body["request_id"] == .string(response.header("X-Request-Id") ?? "?"))
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let running = try RunningServer()
        let response = try running.client().request("PUT", "/health")
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
    }

    @Test func headAnswersWithoutBody() throws {
        let running = try RunningServer()
        let client = try running.client()
        let head = try client.request("HEAD", "/health")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        // The connection is still in step: the next response is read intact.
        #expect(try client.request("GET", "/health").text == "ok")
    }

    @Test func anOversizedBodySentWholeIsAnswered413() throws {
        let running = try RunningServer()
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 16 << 20)
        let response = try running.client().request(
            "POST", "/v1/echo",
            headers: [("Authorization", "Bearer \(TestKeys.admin)"), ("Content-Type", "application/json")],
            body: body)
        #expect(response.status == 413)
        let problem = try JSONValue(parsing: response.body)
        #expect(problem["type"] == .string("urn:herald:problem:content-too-large"))
    }

    @Test func oversizedBodyWithExpectContinueIsRefusedBeforeUpload() throws {
        let running = try RunningServer()
        let client = try running.client()
        try client.send(
            Array(
                ("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Authorization: Bearer \(TestKeys.events)\r\n"
                    + "Content-Length: 2097152\r\nExpect: 100-continue\r\n\r\n").utf8))
        let response = try client.readResponse()
        #expect(response.status == 413)
    }

    @Test func aDeclaredOversizedBodyIsRefusedBeforeUploadWithoutExpect() throws {
        let running = try RunningServer()
        let client = try running.client()
        try client.send(
            Array(
                ("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Authorization: Bearer \(TestKeys.events)\r\nContent-Length: 2097152\r\n\r\n").utf8))
        #expect(try client.readResponse().status == 413)
    }

    @Test func aStrangerIsAnsweredOnTheHeadersAndTheConnectionCloses() throws {
        let running = try RunningServer()
        let client = try running.client()
        try client.send(
            Array(
                ("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2097152\r\n\r\n").utf8))
        let response = try client.readResponse()
        #expect(response.status == 401)
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(client.isClosedByServer())
    }

    @Test func bodyAtTheLimitIsAccepted() throws {
        let running = try RunningServer(maxBodyBytes: 64)
        let body = Array(#"{"user_id":1,"tags":["\#(String(repeating: "x", count: 39))"]}"#.utf8)
        #expect(body.count == 64)
        let headers = [("Authorization", "Bearer \(TestKeys.admin)"), ("Content-Type", "application/json")]
        let client = try running.client()
        #expect(try client.request("POST", "/v1/echo", headers: headers, body: body).status == 201)
        #expect(try running.client().request("POST", "/v1/echo", headers: headers, body: body + [32]).status == 413)
    }

    @Test func expectContinueWithinTheLimitGetsTheBody() throws {
        let running = try RunningServer()
        let client = try running.client()
        let body = Array(#"{"user_id":5}"#.utf8)
        try client.send(
            Array(
                ("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Authorization: Bearer \(TestKeys.events)\r\n"
                    + "Content-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n").utf8))
        #expect(try client.readResponse(bodyExpected: false).status == 100)
        try client.send(body)
        let response = try client.readResponse()
        #expect(response.status == 201)
        #expect(try JSONValue(parsing: response.body)["user_id"] == .int(5))
    }

    @Test(arguments: [(1 << 20, 201), (40, 413)])
    func chunkedUploadsAreAccumulatedAndLimited(limit: Int, status: Int) throws {
        let running = try RunningServer(maxBodyBytes: limit)
        let client = try running.client()
        let chunks = [#"{"user_id""#, #":9,"tags":["#, #""a","b","c","d","e"]}"#]
        var raw =
            "POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Authorization: Bearer \(TestKeys.events)\r\nTransfer-Encoding: chunked\r\n\r\n"
        for chunk in chunks {
            raw += String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n"
        }
        raw += "0\r\n\r\n"
        try client.send(Array(raw.utf8))
        let response = try client.readResponse()
        #expect(response.status == status)
        if status == 201 {
            #expect(
                try JSONValue(parsing: response.body)["tags"]
                    == .array(["a", "b", "c", "d", "e"].map(JSONValue.string)))
        }
    }

    @Test func asyncStopReleasesThePort() async throws {
        let running = try RunningServer()
        let port = running.port
        await running.server.stop(timeout: .seconds(5))
        #expect(running.server.port == nil)
        #expect(throws: RawHTTPClient.Failure.self) { try RawHTTPClient(port: port) }
        await running.server.stop(timeout: .seconds(5))
    }

    @Test func malformedJSONIs400() throws {
        let running = try RunningServer()
        let response = try running.client().request(
            "POST", "/v1/echo",
            headers: [("Authorization", "Bearer \(TestKeys.events)"), ("Content-Type", "application/json")],
            body: Array(#"{"user_id": "#.utf8))
        #expect(response.status == 400)
        #expect(try JSONValue(parsing: response.body)["type"] == .string("urn:herald:problem:malformed-json"))
    }

    @Test func wrongTypeIs422WithPointer() throws {
        let running = try RunningServer()
        let response = try running.client().request(
            "POST", "/v1/echo",
            headers: [("Authorization", "Bearer \(TestKeys.events)"), ("Content-Type", "application/json")],
            body: Array(#"{"user_id": 1, "quiet_hours": {"start": 22, "end": "07:00"}}"#.utf8))
        #expect(response.status == 422)
        #expect(try JSONValue(parsing: response.body)["pointer"] == .string("/quiet_hours/start"))
    }

    @Test func missingKeyIs401AndMissingScopeIs403() throws {
        let running = try RunningServer()
        // Each refusal closes its connection, so each request gets one of its own.
        let anonymous = try running.client().request("POST", "/v1/users:import")
        #expect(anonymous.status == 401)
        #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        let unknown = try running.client().request(
            "POST", "/v1/users:import", headers: [("Authorization", "Bearer nope")])
        #expect(unknown.status == 401)
        let scoped = try running.client().request(
            "POST", "/v1/users:import", headers: [("Authorization", "Bearer \(TestKeys.events)")])
        #expect(scoped.status == 403)
        #expect(scoped.header("Content-Type") == "application/problem+json")
        let admin = try running.client().request(
            "POST", "/v1/users:import", headers: [("Authorization", "Bearer \(TestKeys.admin)")])
        #expect(admin.status == 202)
    }

    @Test(arguments: [
        ("client-id_1.2", true), ("has space", false), (String(repeating: "a", count: 64), true),
        (String(repeating: "a", count: 65), false), ("<script>", false),
    ])
    func requestIDIsEchoedWhenSane(incoming: String, echoed: Bool) throws {
        let running = try RunningServer()
        let response = try running.client().request("GET", "/whoami", headers: [("X-Request-Id", incoming)])
        let id = try #require(response.header("X-Request-Id"))
        #expect((id == incoming) == echoed)
        #expect(try JSONValue(parsing: response.body)["request_id"] == .string(id))
        #expect(waitUntil { running.logs.all.contains { $0.contains("\"request.id\":\"\(id)\"") } })
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        let running = try RunningServer()
        let client = try running.client()
        for index in 0..<20 {
            let response = try client.request("GET", "/whoami?q=\(index)")
            #expect(response.status == 200)
            #expect(try JSONValue(parsing: response.body)["q"] == .string(String(index)))
        }
    }

    @Test func remoteAddressIsTheClient() throws {
        let running = try RunningServer()
        let response = try running.client().request("GET", "/whoami")
        #expect(try JSONValue(parsing: response.body)["address"] == .string("127.0.0.1"))
    }

    @Test func accessLineAndMetricsForEveryRequest() throws {
        let running = try RunningServer()
        let client = try running.client()
        let secret = TestKeys.admin
        _ = try client.request(
            "GET", "/v1/categories/c7", headers: [("Authorization", "Bearer \(secret)"), ("X-Request-Id", "acc-1")])
        _ = try client.request("GET", "/v1/missing", headers: [("X-Request-Id", "acc-2")])
        #expect(waitUntil { running.logs.all.filter { $0.contains("\"message\":\"request\"") }.count >= 2 })
        let line = try #require(running.logs.all.first { $0.contains("\"request.id\":\"acc-1\"") })
        #expect(line.contains("\"http.route\":\"/v1/categories/{id}\""))
        #expect(line.contains("\"http.method\":\"GET\""))
        #expect(line.contains("\"http.status\":200"))
        #expect(line.contains("\"http.duration_ms\":"))
        #expect(line.contains("\"auth.key_id\":\"key-admin\""))
        #expect(!running.logs.all.joined().contains(secret))
        // Personal data stays out: the path's ids and the client's address.
        #expect(!line.contains("c7"))
        let accessLines = running.logs.all.filter { $0.contains("\"message\":\"request\"") }
        #expect(!accessLines.contains { $0.contains("127.0.0.1") || $0.contains("client.") })
        #expect(
            running.metrics.counterValue(
                "herald_http_requests_total", labels: ["GET", "/v1/categories/{id}", "200"]) == 1)
        #expect(running.metrics.counterValue("herald_http_requests_total", labels: ["GET", "unmatched", "404"]) == 1)
        #expect(running.metrics.renderPrometheus().contains("herald_http_request_duration_seconds_count"))
    }

    @Test func gracefulStopLetsInFlightRequestFinish() throws {
        let release = DispatchSemaphore(value: 0)
        let running = try RunningServer { router in
            router.get("/slow", auth: .public) { _, _ in
                _ = release.wait(timeout: .now() + 30)
                return .text("finished")
            }
        }
        let result = SharedBox<RawHTTPClient.Response?>(nil)
        let port = running.port
        Thread {
            let response = try? RawHTTPClient(port: port).request("GET", "/slow")
            result.value = response
        }.start()
        #expect(waitUntil { running.server.activeRequests == 1 })
        let stopped = SharedBox(false)
        let server = running.server
        Thread {
            server.stop(timeout: .seconds(30))
            stopped.value = true
        }.start()
        #expect(waitUntil { server.isDraining })
        #expect(!stopped.value)
        // A connection made while draining is closed without an answer.
        #expect(throws: RawHTTPClient.Failure.self) { try RawHTTPClient(port: port).request("GET", "/health") }
        #expect(!stopped.value)
        release.signal()
        #expect(waitUntil { stopped.value })
        // The client thread stores what it read on its own schedule, possibly just after the server stopped.
        #expect(waitUntil { result.value != nil })
        let response = try #require(result.value)
        #expect(response.status == 200)
        #expect(response.text == "finished")
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(throws: RawHTTPClient.Failure.self) { try RawHTTPClient(port: port) }
    }

    @Test func abandonedUploadsDoNotHoldUpStop() throws {
        let running = try RunningServer()
        // Admitted uploads (the key is good) whose clients stop sending halfway.
        let head =
            "POST /v1/echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestKeys.events)\r\nContent-Length: 100\r\n\r\n"
        for _ in 0..<5 {
            let client = try running.client()
            try client.send(Array((head + "{\"a\"").utf8))
        }
        let pending = try running.client()
        try pending.send(Array((head + "{").utf8))
        #expect(try running.client().request("GET", "/health").status == 200)
        #expect(waitUntil { running.server.inFlightRequests >= 1 })
        #expect(waitUntil { running.server.activeRequests == 0 })
        let stopped = SharedBox(false)
        let server = running.server
        Thread {
            server.stop(timeout: .seconds(60))
            stopped.value = true
        }.start()
        #expect(waitUntil(timeout: .seconds(20)) { stopped.value })
    }

    @Test func startRejectsInvalidConfiguration() {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "not-an-ip", port: 0, connectionLimit: 0),
            dispatcher: sampleDispatcher(), logger: Logger(sink: .discard))
        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    @Test func secondServerOnTheSamePortFails() throws {
        let running = try RunningServer()
        let clash = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: running.port),
            dispatcher: sampleDispatcher(), logger: Logger(sink: .discard))
        #expect(throws: HTTPServerError.self) { try clash.start() }
    }
}
