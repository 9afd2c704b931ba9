import Foundation
import HeraldPostgres

/// `herald bench [--quick] [--json PATH]`: measures the pipeline, its PostgreSQL limit, ingest, latency and memory.
enum BenchCommand {
    /// The sizes of one run.
    struct Sizes {
        var users = 20_000
        var limitEvents = 50_000
        var pipelineEvents = 50_000
        var ingestEvents = 100_000
        var latencySeconds = 30
        static let quick = Sizes(
            users: 5_000, limitEvents: 10_000, pipelineEvents: 10_000, ingestEvents: 20_000, latencySeconds: 5)
    }

    /// Runs the benchmark and returns the exit status.
    static func run(arguments: [String], environment: [String: String]) -> Int32 {
        var sizes = Sizes()
        var jsonPath = "bench-results.json"
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--quick": sizes = .quick
            case "--json" where index + 1 < arguments.count:
                index += 1
                jsonPath = arguments[index]
            default:
                StandardError.write("usage: herald bench [--quick] [--json PATH]\n")
                return 64
            }
            index += 1
        }
        do {
            let results = try measure(sizes: sizes, quick: sizes.users == Sizes.quick.users, environment: environment)
            let data = try JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: URL(fileURLWithPath: jsonPath))
            StandardOutput.write("results written to \(jsonPath)\n")
            return 0
        } catch {
            StandardError.write("herald bench: \(error)\n")
            return 1
        }
    }

    static func measure(sizes: Sizes, quick: Bool, environment: [String: String]) throws -> [String: Any] {
        let service = try BenchService(environment: environment)
        defer { service.close() }
        let population = BenchPopulation(users: sizes.users)
        var started = ContinuousClock.now
        progress("loading population")
        try population.load(service)
        let loadSeconds = BenchStatistics.seconds(since: started)
        var table = BenchTable()
        table.add("population: users (1-3 devices, 12 zones)", "\(sizes.users) in \(fmt(loadSeconds, 1)) s")

        progress("limit")
        // 1. limit: the events are in the inbox; only their output rows are timed.
        try preload(service, population, source: "bench-limit", count: sizes.limitEvents)
        let limit = try BenchLimit.run(service, source: "bench-limit", users: sizes.users, batch: 200)
        let limitRate = BenchStatistics.rate(limit.events, seconds: limit.seconds)
        table.add("limit: raw PostgreSQL events/s", fmt(limitRate))
        table.add(
            "limit: raw PostgreSQL deliveries/s", fmt(BenchStatistics.rate(limit.deliveries, seconds: limit.seconds)))

        progress("pipeline")
        // 2. pipeline: the inbox holds the events before the workers start.
        try preload(service, population, source: "bench-pipeline", count: sizes.pipelineEvents)
        started = ContinuousClock.now
        let workers = try service.startWorkers()
        defer { workers?.stop() }
        try service.waitForDrain()
        let pipelineSeconds = BenchStatistics.seconds(since: started)
        let pipelineDeliveries = Int(
            try service.number("SELECT count(*)::float8 FROM deliveries WHERE event_source = 'bench-pipeline'"))
        let pipelineRate = BenchStatistics.rate(sizes.pipelineEvents, seconds: pipelineSeconds)
        let ratio = limitRate > 0 ? pipelineRate / limitRate : 0
        table.add("pipeline: events/s", fmt(pipelineRate))
        table.add("pipeline: deliveries/s", fmt(BenchStatistics.rate(pipelineDeliveries, seconds: pipelineSeconds)))
        table.add("pipeline ÷ limit", fmt(ratio, 2))

        progress("ingest")
        // 3. ingest: batches of 100 from 4 connections, workers running as in `herald serve`.
        let client = BenchClient(port: service.server.port ?? 0, adminKey: service.adminKey)
        let batches = stride(from: 0, to: sizes.ingestEvents, by: 100).map {
            population.eventBatch(source: "bench-ingest", $0..<min($0 + 100, sizes.ingestEvents))
        }
        started = ContinuousClock.now
        let latencies = try client.ingest(batches: batches, connections: 4)
        let ingestSeconds = BenchStatistics.seconds(since: started)
        let ingestRate = BenchStatistics.rate(sizes.ingestEvents, seconds: ingestSeconds)
        let ingestP50 = BenchStatistics.percentile(latencies, 50)
        let ingestP99 = BenchStatistics.percentile(latencies, 99)
        table.add("ingest: events/s accepted", fmt(ingestRate))
        table.add("ingest: request p50 / p99 ms", "\(fmt(ingestP50, 1)) / \(fmt(ingestP99, 1))")
        try service.waitForDrain()

        progress("latency")
        // 4. latency: 1,000 events/s as batches of 10 every 10 ms.
        let steadyCount = sizes.latencySeconds * 1_000
        let bodies = stride(from: 0, to: steadyCount, by: 10).map {
            population.eventBatch(source: "bench-latency", $0..<($0 + 10))
        }
        try client.steady(bodies: bodies, interval: 0.01, connections: 4)
        try service.waitForDrain()
        let delays = try service.database { connection in
            try connection.query(
                Query(
                    unsafeSQL: """
                        SELECT (extract(epoch FROM min(d.created_at) - e.accepted_at) * 1000)::float8
                        FROM events e JOIN deliveries d ON d.event_source = e.source AND d.event_id = e.id
                        WHERE e.source = 'bench-latency' GROUP BY e.seq
                        """)
            ).map { try $0.double(0) }
        }
        let latency = [50.0, 95, 99].map { BenchStatistics.percentile(delays, $0) }
        table.add("latency at 1,000 events/s p50/p95/p99 ms", latency.map { fmt($0, 1) }.joined(separator: " / "))
        table.add("campaign", "not available (campaigns not built)")
        let peak = BenchStatistics.peakResidentMegabytes() ?? 0
        table.add("memory: peak RSS MB", fmt(peak, 1))
        StandardOutput.write(table.text)

        return [
            "quick": quick, "git_commit": gitCommit(),
            "machine": [
                "cores": ProcessInfo.processInfo.activeProcessorCount,
                "memory_mb": Int(ProcessInfo.processInfo.physicalMemory / 1_048_576),
            ],
            "postgres": [
                "shared_buffers": try service.setting("shared_buffers"),
                "synchronous_commit": try service.setting("synchronous_commit"),
                "fsync": try service.setting("fsync"), "embedded": environment["DATABASE_URL"] == nil,
            ],
            "population": ["users": sizes.users, "load_seconds": loadSeconds],
            "limit": [
                "events": limit.events, "deliveries": limit.deliveries, "seconds": limit.seconds,
                "events_per_second": limitRate,
                "deliveries_per_second": BenchStatistics.rate(limit.deliveries, seconds: limit.seconds),
            ],
            "pipeline": [
                "events": sizes.pipelineEvents, "deliveries": pipelineDeliveries, "seconds": pipelineSeconds,
                "events_per_second": pipelineRate,
                "deliveries_per_second": BenchStatistics.rate(pipelineDeliveries, seconds: pipelineSeconds),
                "ratio_to_limit": ratio,
            ],
            "ingest": [
                "events": sizes.ingestEvents, "batch": 100, "connections": 4, "seconds": ingestSeconds,
                "events_per_second": ingestRate, "p50_ms": ingestP50, "p99_ms": ingestP99,
            ],
            "latency": [
                "rate_per_second": 1_000, "seconds": sizes.latencySeconds, "events": delays.count,
                "p50_ms": latency[0], "p95_ms": latency[1], "p99_ms": latency[2],
            ],
            "campaign": "not available (campaigns not built)",
            "memory": ["peak_rss_mb": peak],
        ]
    }

    /// Puts `count` events of `source` in the inbox through the ingest route, in process.
    static func preload(_ service: BenchService, _ population: BenchPopulation, source: String, count: Int) throws {
        for start in stride(from: 0, to: count, by: 100) {
            let response = service.send(
                .post, "/v1/events", body: population.eventBatch(source: source, start..<min(start + 100, count)))
            guard (200..<300).contains(response.status.rawValue) else {
                throw ServiceStartError(message: "bench: preloading events failed (\(response.status.rawValue))")
            }
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
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return process.terminationStatus == 0 ? text.trimmingCharacters(in: .whitespacesAndNewlines) : "unknown"
    }

    /// One progress line on stderr, so a long run shows where it is.
    static func progress(_ phase: String) { StandardError.write("bench: \(phase)\n") }

    static func fmt(_ value: Double, _ decimals: Int = 0) -> String { BenchTable.format(value, decimals: decimals) }
}
