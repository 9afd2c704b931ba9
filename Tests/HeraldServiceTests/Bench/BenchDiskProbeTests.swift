import Foundation
import Testing

@testable import HeraldService

@Suite("The disk probe")
struct BenchDiskProbeTests {
    @Test func stallsAreTheFlushesOfTwentyMillisecondsOrMore() {
        let figures = BenchDiskProbe.Figures([0.3, 0.4, 0.5, 19.9, 20, 75.5] + Array(repeating: 0.2, count: 94))
        #expect(figures.samples == 100)
        #expect(figures.p50 == 0.2)
        #expect(figures.p99 == 20)
        #expect(figures.max == 75.5)
        #expect(figures.stalls == 2)
        #expect(figures.stalledMilliseconds == 95.5)
        #expect(figures.json["stalls_20ms"] as? Int == 2)
    }

    @Test func itFlushesWhileTheBodyRunsAndLeavesNoFileBehind() throws {
        let folder = NSTemporaryDirectory() + "disk-probe-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (result, disk) = try BenchDiskProbe.during(folder: folder, interval: 0.001) { flushes in
            let deadline = ContinuousClock.now + .seconds(10)
            while flushes() < 3 {
                guard ContinuousClock.now < deadline else { return "no flush in 10 s" }
                sched_yield()
            }
            return "flushed"
        }
        #expect(result == "flushed")
        #expect(disk.samples >= 3)
        #expect(disk.max >= disk.p50 && disk.p50 > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func aFolderThatDoesNotExistIsAnError() {
        #expect(throws: ServiceStartError.self) {
            _ = try BenchDiskProbe.during(folder: "/nonexistent/\(UUID().uuidString)") { _ in 0 }
        }
    }
}
