import Foundation
import HeraldPostgres
import HeraldSupport

/// `herald bench [--quick] [--soak] [--explain-top N] [--json PATH]`: measures the pipeline and ingest against their
/// PostgreSQL limits, the two at once, latency, campaigns, memory and the CPU every phase cost per event, prints a
/// table and writes every figure to a JSON file.
enum BenchCommand {
    /// The sizes of one run.
    struct Sizes {
        var users = 20_000
        var limitEvents = 50_000
        var pipelineEvents = 50_000
        var ingestEvents = 100_000
        /// Events decided in the mixed phase (ingest and the workers at once).
        var mixedEvents = 50_000
        var latencySeconds = 30
        /// Users added for the campaign phase (spread over about 400 zones).
        var campaignUsers = 1_000_000
        /// Past days of history written for the aging phase, and events per day.
        var agingDays = 30
        var agingEventsPerDay = 10_000
        /// Seconds of the steady soak after the other phases; 0 for none.
        var soakSeconds = 0
        var quick = false
        static let quick = Sizes(
            users: 2_000, limitEvents: 5_000, pipelineEvents: 5_000, ingestEvents: 5_000, mixedEvents: 5_000,
            latencySeconds: 5,
            campaignUsers: 10_000, agingDays: 3, agingEventsPerDay: 2_000, quick: true)
    }

    static let usage = "usage: herald bench [--quick] [--soak] [--history-days N] [--explain-top N] [--json PATH]\n"

    /// Runs the benchmark and returns the exit status.
    static func run(arguments: [String], environment: [String: String]) -> Int32 {
        var sizes = Sizes()
        var soak = false
        var jsonPath = "bench-results.json"
        var historyDays: Int?
        var explainTop = 0
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--help", "-h":
                StandardOutput.write(usage)
                return 0
            case "--quick": sizes = .quick
            case "--soak": soak = true
            case "--json" where index + 1 < arguments.count:
                index += 1
                jsonPath = arguments[index]
            case "--history-days"
            where index + 1 < arguments.count && Int(arguments[index + 1]).map({ (0...365).contains($0) }) == true:
                index += 1
                historyDays = Int(arguments[index])
            case "--explain-top"
            where index + 1 < arguments.count && Int(arguments[index + 1]).map({ (1...1_000).contains($0) }) == true:
                index += 1
                explainTop = Int(arguments[index]) ?? 0
            default:
                StandardError.write(usage)
                return 64
            }
            index += 1
        }
        // Ten minutes; with `--quick`, long enough to show that every soak figure is written.
        if soak { sizes.soakSeconds = sizes.quick ? 10 : 600 }
        if let historyDays { sizes.agingDays = historyDays }
        // A signal during the run stops the embedded server and removes its folder; the run then fails on its next
        // statement and the command returns 128 + the signal's number (or the process ends 10 s later regardless).
        let shutdown = ShutdownSignal()
        do {
            let service = try BenchService(environment: environment, tracksStatements: explainTop > 0)
            defer { service.close() }
            Thread.detachNewThread {
                let number = shutdown.wait()
                service.abandon()
                Thread.sleep(forTimeInterval: 10)
                exit(128 + number)
            }
            // The commit checked out as the run starts: one made during a run's minutes must not name it.
            let commit = gitCommit()
            var run = BenchRun(service: service, sizes: sizes, explainTop: explainTop)
            var results = try run.measure()
            results["quick"] = sizes.quick
            results["git_commit"] = commit
            results["machine"] = [
                "cores": ProcessInfo.processInfo.activeProcessorCount,
                "memory_mb": Int(ProcessInfo.processInfo.physicalMemory / 1_048_576),
                "load_average": loadAverage(),
            ]
            results["postgres"] = [
                "shared_buffers": try service.setting("shared_buffers"),
                "synchronous_commit": try service.setting("synchronous_commit"),
                "fsync": try service.setting("fsync"), "embedded": environment["DATABASE_URL"] == nil,
            ]
            let targets = BenchTargets.evaluate(results)
            results["targets"] = BenchTargets.json(targets)
            StandardOutput.write(run.table.text + "\n" + BenchTargets.text(targets))
            let data = try JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: URL(fileURLWithPath: jsonPath))
            StandardOutput.write("results written to \(jsonPath)\n")
            return 0
        } catch {
            if let number = shutdown.received {
                StandardError.write("herald bench: stopped by signal \(number)\n")
                return 128 + number
            }
            StandardError.write("herald bench: \(error)\n")
            return 1
        }
    }

    static func gitCommit() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["rev-parse", "HEAD"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "unknown" }
        process.waitUntilExited()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return process.terminationStatus == 0 ? text.trimmingCharacters(in: .whitespacesAndNewlines) : "unknown"
    }

    /// The 1-minute load average at the end of the run: how busy the shared machine was.
    static func loadAverage() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return 0 }
        return text.split(separator: " ").first.flatMap { Double(String($0)) } ?? 0
    }

    /// One progress line on stderr, so a long run shows where it is.
    static func progress(_ phase: String) { StandardError.write("bench: \(phase)\n") }

    static func fmt(_ value: Double, _ decimals: Int = 0) -> String { BenchTable.format(value, decimals: decimals) }
}
