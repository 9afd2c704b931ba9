/// A counter family: one monotonically increasing value per label set.
struct CounterFamily {
    let help: String
    let labelNames: [String]
    var series: [[String]: Double] = [:]
}

/// A histogram family: cumulative bucket counts, sum and count per label set.
struct HistogramFamily {
    struct Series {
        var bucketCounts: [UInt64]
        var sum: Double = 0
        var count: UInt64 = 0
    }

    let help: String
    let labelNames: [String]
    let upperBounds: [Double]
    var series: [[String]: Series] = [:]

    mutating func observe(_ value: Double, labels: [String]) {
        var entry =
            series[labels] ?? Series(bucketCounts: Array(repeating: 0, count: upperBounds.count))
        // Buckets are stored per interval and summed when rendered, so an observation touches one slot.
        if let slot = upperBounds.firstIndex(where: { value <= $0 }) {
            entry.bucketCounts[slot] += 1
        }
        entry.sum += value
        entry.count += 1
        series[labels] = entry
    }
}

/// A gauge whose value is read when the metrics are rendered.
struct GaugeReading: Sendable {
    let name: String
    let help: String
    let labels: [(String, String)]
    let read: @Sendable () -> Double
}

/// Everything the registry holds, behind one lock.
struct MetricsState {
    var counters: [String: CounterFamily] = [:]
    var histograms: [String: HistogramFamily] = [:]
    var gauges: [GaugeReading] = []
}
