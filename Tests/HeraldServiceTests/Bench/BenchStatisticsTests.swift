import Foundation
import Testing

@testable import HeraldService

@Suite("Benchmark figures")
struct BenchStatisticsTests {
    @Test func percentilesAreNearestRank() {
        let values = (1...100).map(Double.init).shuffled()
        #expect(BenchStatistics.percentile(values, 50) == 50)
        #expect(BenchStatistics.percentile(values, 99) == 99)
        #expect(BenchStatistics.percentile(values, 100) == 100)
        #expect(BenchStatistics.percentile([7], 99) == 7)
        #expect(BenchStatistics.percentile([], 50) == 0)
    }

    @Test func ratesNeedTime() {
        #expect(BenchStatistics.rate(500, seconds: 2) == 250)
        #expect(BenchStatistics.rate(500, seconds: 0) == 0)
    }

    @Test func memoryFiguresComeFromTheStatusFile() {
        let status = "Name:\therald\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n"
        #expect(BenchStatistics.megabytes(statusField: "VmHWM", in: status) == 200)
        #expect(BenchStatistics.megabytes(statusField: "VmRSS", in: status) == 100)
        #expect(BenchStatistics.megabytes(statusField: "VmSwap", in: status) == nil)
        #expect((BenchStatistics.residentMegabytes() ?? 0) > 0)
    }

    @Test func threadsReturnResultsInLaneOrder() throws {
        #expect(try BenchThreads.run(4) { $0 * 10 } == [0, 10, 20, 30])
    }
}
