import Foundation
import HeraldPostgres

/// The soak (`--soak`): the latency phase's steady 1,000 events/s for ten minutes, with the process's resident
/// memory read as the traffic starts and after every tenth of the soak (once a minute). Each body is made when it
/// falls due and the watcher only counts what it sees, so the benchmark holds as much in the last minute as in the
/// first: what grows is Herald's.
extension BenchRun {
    /// What each lane of the soak returns: the poster its requests, the watcher its count, the sampler its readings.
    private struct SoakLane: Sendable {
        var posted = 0
        var seen = 0
        var residentMegabytes: [Double] = []
    }

    mutating func soak(seconds: Int) throws -> [String: Any] {
        let client = BenchClient(port: service.server.port ?? 0, adminKey: service.adminKey)
        let count = seconds * 1_000
        let population = population
        let firstSeq = try service.database { try BenchRepository.nextEventSeq(on: $0) }
        let watched = LockedValue(false)
        let every = Duration.seconds(Double(seconds) / 10)
        let lanes = try BenchThreads.run(3) { [service] lane -> SoakLane in
            switch lane {
            case 0:
                let posts = try client.steady(count: count / 10, interval: 0.01, connections: 4) { index in
                    population.eventBatch(source: "bench-soak", (index * 10)..<(index * 10 + 10))
                }
                return SoakLane(posted: posts.count)
            case 1:
                defer { watched.withLock { $0 = true } }
                let watch = try BenchLatencyWatch.watch(
                    service, source: "bench-soak", firstSeq: firstSeq, expected: count,
                    interval: BenchLatencyWatch.interval, timeout: Double(seconds) + 120, keepingDelays: false)
                return SoakLane(seen: watch.seen)
            default:
                return SoakLane(residentMegabytes: Self.sampleResident(every: every, until: watched))
            }
        }
        let samples = lanes[2].residentMegabytes
        let first = samples.first ?? 0
        let last = samples.last ?? 0
        let afterTenth = samples.count > 1 ? samples[1] : last
        table.add(
            "soak: RSS MB as the traffic starts / after a tenth of it / at the end (events seen)",
            "\(fmt(first, 1)) / \(fmt(afterTenth, 1)) / \(fmt(last, 1)) (\(lanes[1].seen))")
        return [
            "seconds": seconds, "events": count, "observed": lanes[1].seen, "requests": lanes[0].posted,
            "rss_start_mb": first, "rss_after_tenth_mb": afterTenth, "rss_end_mb": last,
            "rss_samples_mb": samples, "rss_sample_seconds": Double(seconds) / 10,
        ]
    }

    /// The resident memory now and after every `every` until `done`, then once more.
    private static func sampleResident(every: Duration, until done: LockedValue<Bool>) -> [Double] {
        var samples = [BenchStatistics.residentMegabytes() ?? 0]
        let start = ContinuousClock.now
        var next = every
        while !done.withLock({ $0 }) {
            Thread.sleep(forTimeInterval: 0.1)
            if ContinuousClock.now - start >= next {
                samples.append(BenchStatistics.residentMegabytes() ?? 0)
                next += every
            }
        }
        samples.append(BenchStatistics.residentMegabytes() ?? 0)
        return samples
    }
}
