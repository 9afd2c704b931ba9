import HeraldHTTP
import HeraldObservability
import Testing

/// The HTTP side of the metrics registry: request counters and histograms, and the `/metrics` response.
@Suite struct RequestMetricsTests {
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
