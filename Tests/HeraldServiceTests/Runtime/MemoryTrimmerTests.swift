import Dispatch
import Foundation
import Testing

@testable import HeraldService

#if canImport(Glibc)
    import Glibc
#endif

/// The memory trimmer: a trim gives the heaps' free pages back to the system, and the trimmer trims at every
/// interval until it is stopped.
@Suite("Memory trimmer")
struct MemoryTrimmerTests {
    /// 128 MiB of 1 KiB blocks, written, then all freed but one block in 64, so that no freed page lies at the top of
    /// a heap, where glibc would give it back by itself: the trim takes the resident size down by most of it.
    @Test func aTrimGivesTheHeapsFreePagesBack() throws {
        let blockBytes = 1_024
        var kept: [UnsafeMutableRawPointer] = []
        var freed: [UnsafeMutableRawPointer] = []
        for index in 0..<131_072 {
            let block = try #require(malloc(blockBytes))
            memset(block, 1, blockBytes)
            if index % 64 == 0 { kept.append(block) } else { freed.append(block) }
        }
        defer { kept.forEach { free($0) } }
        freed.forEach { free($0) }
        let before = try #require(BenchStatistics.residentMegabytes())
        MemoryTrimmer.trimHeap()
        let after = try #require(BenchStatistics.residentMegabytes())
        // 126 MiB were freed; other tests of the process allocate meanwhile, so half of it is what is asked.
        #expect(before - after >= 64, "resident \(before) MB before the trim, \(after) MB after")
    }

    @Test func trimsAtEveryIntervalUntilStopped() async throws {
        let trims = LockedValue(0)
        let trimmer = MemoryTrimmer(interval: .milliseconds(5)) { trims.withLock { $0 += 1 } }
        trimmer.start()
        let deadline = ContinuousClock.now + .seconds(120)
        while trims.withLock({ $0 }) < 3 {
            try #require(ContinuousClock.now < deadline, "the trimmer trimmed \(trims.withLock { $0 }) times in 120 s")
            try await Task.sleep(for: .milliseconds(5))
        }
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            trimmer.stop()
            stopped.signal()
        }.start()
        #expect(await signalled(stopped), "stop did not return")
        let atStop = trims.withLock { $0 }
        // The loop has returned: nothing trims any more, and a second stop is harmless.
        trimmer.stop()
        #expect(trims.withLock { $0 } == atStop)
    }
}
