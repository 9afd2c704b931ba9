import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How long the disk under the benchmark's database takes to make a small write durable while a phase runs: every
/// `interval`, 8 kB written into a file of the benchmark's folder and `fdatasync`ed, as a commit's WAL flush is.
/// Every event's latency includes its ingest's commit and its batch's commit, so a flush that stalls for 50 ms holds
/// every commit behind it for as long; the probe tells such stalls apart from Herald's own time.
final class BenchDiskProbe: Sendable {
    /// What the probe saw.
    struct Figures {
        var samples: Int
        var p50: Double
        var p99: Double
        var max: Double
        /// Flushes of `stallMilliseconds` or more, and their time in all.
        var stalls: Int
        var stalledMilliseconds: Double

        static let stallMilliseconds = 20.0

        init(_ durations: [Double]) {
            samples = durations.count
            p50 = BenchStatistics.percentile(durations, 50)
            p99 = BenchStatistics.percentile(durations, 99)
            max = durations.max() ?? 0
            let stalled = durations.filter { $0 >= Self.stallMilliseconds }
            stalls = stalled.count
            stalledMilliseconds = stalled.reduce(0, +)
        }

        var json: [String: Any] {
            [
                "samples": samples, "p50_ms": p50, "p99_ms": p99, "max_ms": max, "stalls_20ms": stalls,
                "stalled_ms": stalledMilliseconds,
            ]
        }
    }

    private let path: String
    private let interval: Double
    private let stopped = LockedValue(false)
    private let durations = LockedValue<[Double]>([])
    private let finished = DispatchSemaphore(value: 0)

    private init(folder: String, interval: Double) {
        path = folder + "/disk-probe"
        self.interval = interval
    }

    /// Runs `body` with the probe flushing every `interval` seconds, and returns what `body` returned with what the
    /// probe saw; `body` is given a count of the flushes so far.
    static func during<R>(
        folder: String, interval: Double = 0.05, _ body: (_ flushes: () -> Int) throws -> R
    ) throws -> (result: R, disk: Figures) {
        let probe = BenchDiskProbe(folder: folder, interval: interval)
        let descriptor = open(probe.path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw ServiceStartError(message: "bench: cannot open the disk probe's file") }
        guard ftruncate(descriptor, off_t(Self.fileBytes)) == 0, fsync(descriptor) == 0 else {
            close(descriptor)
            throw ServiceStartError(message: "bench: cannot size the disk probe's file")
        }
        Thread { probe.run(descriptor) }.start()
        defer {
            probe.stopped.withLock { $0 = true }
            probe.finished.wait()
            close(descriptor)
            unlink(probe.path)
        }
        let result = try body { probe.durations.withLock { $0.count } }
        return (result, Figures(probe.durations.withLock { $0 }))
    }

    private static let fileBytes = 1 << 20
    private static let writeBytes = 8_192

    private func run(_ descriptor: Int32) {
        defer { finished.signal() }
        let block = [UInt8](repeating: 0x68, count: Self.writeBytes)
        var offset = 0
        while !stopped.withLock({ $0 }) {
            let start = ContinuousClock.now
            let written = block.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            guard written == Self.writeBytes, fdatasync(descriptor) == 0 else { return }
            let milliseconds = BenchStatistics.seconds(since: start) * 1_000
            durations.withLock { $0.append(milliseconds) }
            offset = (offset + Self.writeBytes) % Self.fileBytes
            Thread.sleep(forTimeInterval: interval)
        }
    }
}
