import Foundation
import Testing

/// `herald bench` cut short by a signal leaves no PostgreSQL server and no folder behind: a server left running
/// would load the machine and skew every later measurement on it.
@Suite("Benchmark command", .serialized)
struct BenchCommandTests {
    @Test func aSignalStopsTheEmbeddedServerAndRemovesItsFolder() async throws {
        let log = NSTemporaryDirectory() + "herald-bench-signal-\(UUID().uuidString.prefix(8)).log"
        #expect(FileManager.default.createFile(atPath: log, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: log) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunningHerald.binary)
        process.arguments = ["bench", "--quick"]
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DATABASE_URL")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        let folder = NSTemporaryDirectory() + "herald-bench-\(process.processIdentifier)"

        // The embedded server is up once the first phase starts.
        try await poll("the first phase", seconds: 120) {
            (try? String(contentsOfFile: log, encoding: .utf8))?.contains("bench: limit") == true
        }
        #expect(!Self.processes(naming: folder).isEmpty, "no server runs from \(folder)")
        process.terminate()
        try await poll("the benchmark to exit", seconds: 60) { !process.isRunning }
        #expect(process.terminationStatus == 128 + SIGTERM)
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(Self.processes(naming: folder).isEmpty, "a server still runs from \(folder)")
    }

    /// Waits until `condition` holds, looking every 100 ms; fails after `seconds`.
    private func poll(_ what: String, seconds: Double, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("waited \(seconds) s for \(what)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The ids of the processes whose command line names `folder`.
    static func processes(naming folder: String) -> [Int] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).contains(folder)
        }
    }
}
