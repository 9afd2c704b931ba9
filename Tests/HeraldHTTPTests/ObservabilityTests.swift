import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@Suite struct MetricsTests {
    @Test func requestMetricsRenderAsPrometheusText() {
        let metrics = Metrics(namespace: "t", latencyBuckets: [0.01, 0.1])
        metrics.recordRequest(method: .get, route: "/v1/x/{id}", status: .ok, seconds: 0.005)
        metrics.recordRequest(method: .get, route: "/v1/x/{id}", status: .ok, seconds: 0.05)
        metrics.recordRequest(method: .get, route: "/v1/x/{id}", status: .ok, seconds: 3)
        metrics.recordRequest(method: .post, route: "/v1/x", status: .unprocessableContent, seconds: 0.001)
        let text = metrics.renderPrometheus()
        let expected = """
            # HELP t_http_requests_total HTTP requests by method, route template and status.
            # TYPE t_http_requests_total counter
            t_http_requests_total{method="GET",route="/v1/x/{id}",status="200"} 3
            t_http_requests_total{method="POST",route="/v1/x",status="422"} 1
            # HELP t_http_request_duration_seconds HTTP request latency in seconds, from request line to handler result.
            # TYPE t_http_request_duration_seconds histogram
            t_http_request_duration_seconds_bucket{method="GET",route="/v1/x/{id}",status="200",le="0.01"} 1
            t_http_request_duration_seconds_bucket{method="GET",route="/v1/x/{id}",status="200",le="0.1"} 2
            t_http_request_duration_seconds_bucket{method="GET",route="/v1/x/{id}",status="200",le="+Inf"} 3
            t_http_request_duration_seconds_sum{method="GET",route="/v1/x/{id}",status="200"} 3.055
            t_http_request_duration_seconds_count{method="GET",route="/v1/x/{id}",status="200"} 3
            t_http_request_duration_seconds_bucket{method="POST",route="/v1/x",status="422",le="0.01"} 1
            t_http_request_duration_seconds_bucket{method="POST",route="/v1/x",status="422",le="0.1"} 1
            t_http_request_duration_seconds_bucket{method="POST",route="/v1/x",status="422",le="+Inf"} 1
            t_http_request_duration_seconds_sum{method="POST",route="/v1/x",status="422"} 0.001
            t_http_request_duration_seconds_count{method="POST",route="/v1/x",status="422"} 1

            """
        #expect(text == expected)
    }

    @Test func labelValuesAndHelpAreEscaped() {
        let metrics = Metrics()
        metrics.increment("odd_total", help: "back\\slash\nnewline", labels: ["v": "a\"b\\c\nd"])
        let text = metrics.renderPrometheus()
        #expect(text.contains(#"# HELP odd_total back\\slash\nnewline"#))
        #expect(text.contains(#"odd_total{v="a\"b\\c\nd"} 1"#))
    }

    @Test func gaugesAreReadAtRenderTime() {
        let metrics = Metrics()
        let box = SharedBox(3.0)
        metrics.registerGauge("pool_in_use", help: "Connections in use.", labels: ["pool": "db"]) { box.value }
        #expect(metrics.renderPrometheus().contains("pool_in_use{pool=\"db\"} 3\n"))
        box.value = 4.5
        let text = metrics.renderPrometheus()
        #expect(text.contains("# TYPE pool_in_use gauge"))
        #expect(text.contains("pool_in_use{pool=\"db\"} 4.5\n"))
    }

    @Test func metricsResponseIsPrometheusText() {
        let metrics = Metrics()
        metrics.increment("jobs_total", help: "Jobs.")
        let response = metrics.prometheusResponse()
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(response.bodyText.hasSuffix("jobs_total 1\n"))
    }

    @Test func serverRegistersItsActiveRequestGauge() {
        let metrics = Metrics()
        _ = HTTPServer(
            configuration: HTTPServerConfiguration(), dispatcher: sampleDispatcher(), logger: Logger(sink: .discard),
            metrics: metrics)
        #expect(metrics.renderPrometheus().contains("herald_http_requests_active 0\n"))
    }

    @Test func concurrentRecordingLosesNothing() async {
        let metrics = Metrics()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for _ in 0..<1000 {
                        metrics.recordRequest(
                            method: .get, route: "/r\(worker % 2)", status: .ok, seconds: 0.001)
                    }
                }
            }
        }
        let total =
            (metrics.counterValue("herald_http_requests_total", labels: ["GET", "/r0", "200"]) ?? 0)
            + (metrics.counterValue("herald_http_requests_total", labels: ["GET", "/r1", "200"]) ?? 0)
        #expect(total == 8000)
    }
}

@Suite struct LoggerTests {
    private func parse(_ line: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func linesAreJSONWithDottedKeys() throws {
        let capture = LogCapture()
        let logger = Logger(minimumLevel: .info, sink: capture.sink).with(["service": "herald"])
        logger.info("request", ["http.status": 201, "http.duration_ms": 1.25, "request.id": "r1", "ok": true])
        let lines = capture.all
        #expect(lines.count == 1)
        #expect(lines[0].hasSuffix("}\n"))
        let object = try parse(lines[0])
        #expect(object["level"] as? String == "info")
        #expect(object["message"] as? String == "request")
        #expect(object["service"] as? String == "herald")
        #expect(object["http.status"] as? Int == 201)
        #expect(object["http.duration_ms"] as? Double == 1.25)
        #expect(object["ok"] as? Bool == true)
        let timestamp = try #require(object["timestamp"] as? String)
        #expect(timestamp.count == 24)
        #expect(ISO8601.parse(timestamp) != nil)
    }

    @Test(arguments: [
        "plain", "quote \" and backslash \\", "new\nline\ttab\r", "bell \u{07} nul \u{00} del \u{7F}",
        "unicode é 🚀 \u{2028}", "</script>",
    ])
    func messagesSurviveEscaping(message: String) throws {
        let capture = LogCapture()
        Logger(sink: capture.sink).warning(message, ["key\"with\nodd": .string(message)])
        let line = try #require(capture.all.first)
        #expect(line.filter { $0 == "\n" }.count == 1)
        let object = try parse(line)
        #expect(object["message"] as? String == message)
        #expect(object["key\"with\nodd"] as? String == message)
    }

    @Test func levelsBelowTheMinimumAreDropped() {
        let capture = LogCapture()
        let logger = Logger(minimumLevel: .warning, sink: capture.sink)
        logger.debug("d")
        logger.info("i")
        logger.warning("w")
        logger.error("e")
        #expect(capture.all.count == 2)
        #expect(!logger.isEnabled(.info))
    }

    @Test(arguments: [("debug", Logger.Level.debug), ("INFO", .info), ("warn", .warning), ("error", .error)])
    func levelsParseByName(name: String, level: Logger.Level) {
        #expect(Logger.Level(name: name) == level)
        #expect(Logger.Level(name: level.name) == level)
    }

    @Test func unknownLevelNameIsRejected() {
        #expect(Logger.Level(name: "loud") == nil)
    }

    @Test func nonFiniteNumbersBecomeNull() throws {
        let capture = LogCapture()
        Logger(sink: capture.sink).info("n", ["x": .double(.nan), "y": .null])
        let object = try parse(try #require(capture.all.first))
        #expect(object["x"] is NSNull)
        #expect(object["y"] is NSNull)
    }
}

@Suite struct ProblemTests {
    @Test func problemDocumentHasTheRFC9457Members() throws {
        let error = HTTPError.invalidFields([
            FieldError(pointer: "/quiet_hours/start", detail: "Expected HH:MM."),
            FieldError(pointer: "/locale", detail: "Unknown locale."),
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
            host: "example.com", connectionLimit: 0, idleTimeout: .zero)
        #expect(configuration.validationProblems().count == 3)
        #expect(HTTPServerConfiguration().validationProblems().isEmpty)
    }
}
