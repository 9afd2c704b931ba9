import HeraldObservability

extension Metrics {
    /// Records one HTTP request in `<ns>_http_requests_total` and `<ns>_http_request_duration_seconds`.
    public func recordRequest(method: HTTPMethod, route: String, status: HTTPStatus, seconds: Double) {
        let labels: KeyValuePairs<String, String> = [
            "method": method.rawValue, "route": route, "status": String(status.rawValue),
        ]
        increment(
            namespace + "_http_requests_total", help: "HTTP requests by method, route template and status.",
            labels: labels)
        observe(
            namespace + "_http_request_duration_seconds",
            help: "HTTP request latency in seconds, from request line to handler result.", labels: labels,
            value: seconds, buckets: latencyBuckets)
    }

    /// A 200 response carrying the rendered registry, for a `/metrics` route.
    public func prometheusResponse() -> HTTPResponse {
        HTTPResponse(
            status: .ok, headers: ["Content-Type": Self.prometheusContentType], body: Array(renderPrometheus().utf8))
    }
}
