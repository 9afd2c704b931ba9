/// Where the latency phase's delays went: each event's delay split at the start of the batch that decided it, as
/// percentiles of each part, and the mean of each part over the slowest 1 % of events (the events above the p99),
/// which says which part the tail is made of.
struct BenchLatencySplit {
    /// Accepted → batch started, p50 and p99 ms.
    var waits: [Double]
    /// Batch started → seen, p50 and p99 ms.
    var batches: [Double]
    /// The slowest 1 %'s mean wait and mean batch, ms.
    var slowestWait: Double
    var slowestBatch: Double

    init(_ watch: BenchLatencyWatch.Watch) {
        waits = [50.0, 99].map { BenchStatistics.percentile(watch.waits, $0) }
        batches = [50.0, 99].map { BenchStatistics.percentile(watch.batches, $0) }
        let order = watch.delays.indices.sorted { watch.delays[$0] > watch.delays[$1] }
        let slowest = order.prefix(max(1, watch.delays.count / 100))
        let mean = { (values: [Double]) in
            slowest.isEmpty ? 0 : slowest.reduce(0) { $0 + values[$1] } / Double(slowest.count)
        }
        slowestWait = mean(watch.waits)
        slowestBatch = mean(watch.batches)
    }

    var json: [String: Any] {
        [
            "wait_p50_ms": waits[0], "wait_p99_ms": waits[1], "batch_p50_ms": batches[0], "batch_p99_ms": batches[1],
            "slowest_wait_mean_ms": slowestWait, "slowest_batch_mean_ms": slowestBatch,
        ]
    }
}
