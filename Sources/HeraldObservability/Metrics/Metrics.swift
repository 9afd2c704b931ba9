import Synchronization

/// A thread-safe registry of counters, histograms and gauges, rendered in the Prometheus text format.
public final class Metrics: Sendable {
    /// Latency buckets in seconds, from half a millisecond to ten seconds.
    public static let defaultLatencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    /// The prefix of every metric name, e.g. `herald` in `herald_http_requests_total`.
    public let namespace: String
    /// The histogram buckets of request latencies, sorted ascending.
    public let latencyBuckets: [Double]
    let state = Mutex(MetricsState())

    /// Creates an empty registry.
    public init(
        namespace: String = "herald", latencyBuckets: [Double] = Metrics.defaultLatencyBuckets
    ) {
        self.namespace = namespace
        self.latencyBuckets = latencyBuckets.sorted()
    }

    /// Adds `amount` to a counter; the first call for a name fixes its help text and label names.
    public func increment(
        _ name: String, help: String, labels: KeyValuePairs<String, String> = [:], by amount: Double = 1
    ) {
        let names = labels.map(\.key)
        let values = labels.map(\.value)
        state.withLock { state in
            if state.counters[name] == nil {
                state.counters[name] = CounterFamily(help: help, labelNames: names)
            }
            guard state.counters[name]!.labelNames == names else { return }
            state.counters[name]!.series[values, default: 0] += amount
        }
    }

    /// Records a value in a histogram; the first call for a name fixes its help text, labels and buckets.
    public func observe(
        _ name: String, help: String, labels: KeyValuePairs<String, String> = [:], value: Double,
        buckets: [Double] = Metrics.defaultLatencyBuckets
    ) {
        let names = labels.map(\.key)
        let values = labels.map(\.value)
        state.withLock { state in
            if state.histograms[name] == nil {
                state.histograms[name] = HistogramFamily(
                    help: help, labelNames: names, upperBounds: buckets.sorted())
            }
            guard state.histograms[name]!.labelNames == names else { return }
            state.histograms[name]!.observe(value, labels: values)
        }
    }

    /// Registers a gauge read at render time, such as pool connections in use; it must be cheap and not block.
    public func registerGauge(
        _ name: String, help: String, labels: KeyValuePairs<String, String> = [:],
        read: @escaping @Sendable () -> Double
    ) {
        let reading = GaugeReading(
            name: name, help: help, labels: labels.map { ($0.key, $0.value) }, read: read)
        state.withLock { $0.gauges.append(reading) }
    }

    /// The current value of a counter series, for tests and health reports.
    public func counterValue(_ name: String, labels: [String] = []) -> Double? {
        state.withLock { $0.counters[name]?.series[labels] }
    }
}
