import Foundation

/// Pure figures for the benchmark: percentiles, rates and the machine's peak memory.
enum BenchStatistics {
    /// The `p`-th percentile (0...100) of `values` by nearest rank; 0 for no values.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// Items per second, 0 when no time passed.
    static func rate(_ count: Int, seconds: Double) -> Double {
        seconds > 0 ? Double(count) / seconds : 0
    }

    /// A `kB` figure from a `/proc/self/status` line such as `VmHWM:   12345 kB`, in megabytes.
    static func megabytes(statusField field: String, in status: String) -> Double? {
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
            return Double(String(digits)).map { $0 / 1024 }
        }
        return nil
    }

    /// Peak resident memory of this process in megabytes, when the kernel tells.
    static func peakResidentMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return megabytes(statusField: "VmHWM", in: status)
    }

    /// Seconds elapsed since `start`.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

extension BenchStatistics {
    /// Resident memory of this process now, in megabytes.
    static func residentMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return megabytes(statusField: "VmRSS", in: status)
    }

    /// Resets the kernel's peak resident figure (VmHWM) to the current size, so the next reading covers only
    /// what follows; false when the kernel refuses.
    @discardableResult
    static func resetPeakResident() -> Bool {
        (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
    }
}
