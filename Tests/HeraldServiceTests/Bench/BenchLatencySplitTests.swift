import Testing

@testable import HeraldService

@Suite("Latency split")
struct BenchLatencySplitTests {
    /// 200 events: 198 quick ones that waited 1 ms for a 3 ms batch, and two slow ones, one stuck waiting and one in
    /// its batch. The slowest 1 % are those two, so their means say the tail is half wait, half batch.
    @Test func theSlowestOnePercentShowWhichPartTheTailIsIn() {
        var watch = BenchLatencyWatch.Watch()
        for _ in 0..<198 { append(&watch, wait: 1, batch: 3) }
        append(&watch, wait: 40, batch: 3)
        append(&watch, wait: 1, batch: 30)
        let split = BenchLatencySplit(watch)
        #expect(split.waits == [1, 1])
        #expect(split.batches == [3, 3])
        #expect(split.slowestWait == (40 + 1) / 2.0)
        #expect(split.slowestBatch == (3 + 30) / 2.0)
        #expect(split.json["wait_p99_ms"] as? Double == 1)
        #expect(split.json["slowest_batch_mean_ms"] as? Double == 16.5)
    }

    @Test func aWatchThatSawNothingSplitsIntoZeros() {
        let split = BenchLatencySplit(BenchLatencyWatch.Watch())
        #expect(split.waits == [0, 0] && split.batches == [0, 0])
        #expect(split.slowestWait == 0 && split.slowestBatch == 0)
    }

    private func append(_ watch: inout BenchLatencyWatch.Watch, wait: Double, batch: Double) {
        watch.delays.append(wait + batch)
        watch.waits.append(wait)
        watch.batches.append(batch)
    }
}
