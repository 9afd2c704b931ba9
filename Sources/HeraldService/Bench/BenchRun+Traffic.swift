import Foundation
import HeraldPostgres

/// The phases that send events over HTTP, and the ingest limit they are compared with.
extension BenchRun {
    /// The ingest limit: the rows of as many events as the ingest phase, written straight through ingest's
    /// statement; adds its row and figures and returns its rate.
    mutating func ingestLimit(_ results: inout [String: Any]) throws -> Double {
        let limit = try BenchIngestLimit.run(
            service, population: population, source: "bench-ingest-limit", count: sizes.ingestEvents)
        let rate = BenchStatistics.rate(limit.events, seconds: limit.seconds)
        table.add("ingest limit: raw PostgreSQL events/s (ingest's statement)", fmt(rate), cpu: limit.cpu)
        results["ingest_limit"] = limit.cpu.json.merging([
            "events": limit.events, "batch": 100, "connections": 4, "seconds": limit.seconds,
            "events_per_second": rate,
        ]) { $1 }
        return rate
    }

    /// The mixed phase: HTTP ingest at full speed while the workers decide, until the phase's events are decided.
    mutating func mixed() throws -> [String: Any] {
        let mixed = try BenchMixed.run(
            service, population: population, source: "bench-mixed", events: sizes.mixedEvents)
        let rate = BenchStatistics.rate(mixed.decided, seconds: mixed.seconds)
        let accepted = BenchStatistics.rate(mixed.decided + mixed.backlog, seconds: mixed.seconds)
        table.add(
            "mixed: ingest while deciding, decided events/s (accepted/s)", "\(fmt(rate)) (\(fmt(accepted)))",
            cpu: mixed.cpu)
        table.add(
            "mixed: backlog at the end, events", String(mixed.backlog) + (mixed.ranOut ? " (reserve ran out)" : ""))
        table.add("mixed: events decided per worker batch", fmt(mixed.eventsPerBatch, 1))
        return mixed.cpu.json.merging([
            "events": mixed.decided, "batch": 100, "connections": 4, "seconds": mixed.seconds,
            "events_per_second": rate, "accepted_per_second": accepted, "backlog": mixed.backlog,
            "ingest_ran_out": mixed.ranOut, "events_per_batch": mixed.eventsPerBatch,
        ]) { $1 }
    }

    /// Ingest: batches of 100 over loopback from 4 connections, compared with the ingest limit's rate.
    mutating func ingest(source: String, label: String, limit: Double) throws -> [String: Any] {
        let client = BenchClient(port: service.server.port ?? 0, adminKey: service.adminKey)
        let count = sizes.ingestEvents
        let batches = stride(from: 0, to: count, by: 100).map {
            population.eventBatch(source: source, $0..<min($0 + 100, count))
        }
        let cpuStart = service.cpu.read()
        let started = ContinuousClock.now
        let latencies = try client.ingest(batches: batches, connections: 4)
        let seconds = BenchStatistics.seconds(since: started)
        let cpu = service.cpu.usage(since: cpuStart, events: count)
        let rate = BenchStatistics.rate(count, seconds: seconds)
        let ratio = limit > 0 ? rate / limit : 0
        let p50 = BenchStatistics.percentile(latencies, 50)
        let p99 = BenchStatistics.percentile(latencies, 99)
        table.add("\(label): events/s accepted (÷ ingest limit)", "\(fmt(rate)) (\(fmt(ratio, 2)))", cpu: cpu)
        table.add("\(label): request p50 / p99 ms", "\(fmt(p50, 1)) / \(fmt(p99, 1))")
        return cpu.json.merging([
            "events": count, "batch": 100, "connections": 4, "seconds": seconds, "events_per_second": rate,
            "p50_ms": p50, "p99_ms": p99, "ratio_to_limit": ratio,
        ]) { $1 }
    }

    /// A steady 1,000 events/s (batches of 10 every 10 ms) for `seconds`, with a watcher timing each event from
    /// acceptance to its committed decision.
    mutating func latency(source: String, seconds: Int) throws -> [String: Any] {
        let client = BenchClient(port: service.server.port ?? 0, adminKey: service.adminKey)
        let count = seconds * 1_000
        let bodies = stride(from: 0, to: count, by: 10).map {
            population.eventBatch(source: source, $0..<($0 + 10))
        }
        // What the watcher's polling costs by itself, so that its share of the phase's CPU is known.
        let watcher =
            source == "bench-latency" ? try BenchLatencyWatch.ownCost(service, seconds: sizes.quick ? 1 : 5) : nil
        let firstSeq = try service.database { try BenchRepository.nextEventSeq(on: $0) }
        let cpuStart = service.cpu.read()
        // Lane 0 posts, lane 1 watches; the disk under the database is probed all along.
        let (lanes, disk) = try BenchDiskProbe.during(folder: service.folder) { _ in
            try BenchThreads.run(2) { [service] lane in
                if lane == 0 {
                    return (
                        posts: try client.steady(
                            count: bodies.count, interval: 0.01, connections: 4, body: { bodies[$0] }),
                        watch: BenchLatencyWatch.Watch()
                    )
                }
                let watch = try BenchLatencyWatch.watch(
                    service, source: source, firstSeq: firstSeq, expected: count,
                    interval: BenchLatencyWatch.interval, timeout: Double(seconds) + 120)
                return (posts: [Double](), watch: watch)
            }
        }
        let watch = lanes[1].watch
        // The watcher is the benchmark's, not Herald's: its thread and its server process are measured apart and
        // left out of the phase's CPU.
        let watcherCPU = BenchCPU.Usage(
            events: count, heraldSeconds: watch.heraldSeconds, postgresSeconds: watch.postgresSeconds)
        var cpu = service.cpu.usage(since: cpuStart, events: count)
        cpu.heraldSeconds -= watch.heraldSeconds
        cpu.postgresSeconds = cpu.postgresSeconds.map { $0 - watch.postgresSeconds }
        let delays = watch.delays
        let figures = [50.0, 95, 99].map { BenchStatistics.percentile(delays, $0) }
        let posts = [50.0, 99].map { BenchStatistics.percentile(lanes[0].posts, $0) }
        let polls = [50.0, 99].map { BenchStatistics.percentile(watch.polls, $0) }
        let split = BenchLatencySplit(watch)
        if source == "bench-latency" {
            table.add(
                "latency at 1,000 events/s p50/p95/p99 ms", figures.map { fmt($0, 1) }.joined(separator: " / "),
                cpu: cpu)
            table.add("latency: its POSTs p50/p99 ms", posts.map { fmt($0, 1) }.joined(separator: " / "))
            table.add(
                "latency: accepted → batch started, p50/p99 ms (slowest 1 %: mean)",
                "\(fmt(split.waits[0], 1)) / \(fmt(split.waits[1], 1)) (\(fmt(split.slowestWait, 1)))")
            table.add(
                "latency: batch started → seen, p50/p99 ms (slowest 1 %: mean)",
                "\(fmt(split.batches[0], 1)) / \(fmt(split.batches[1], 1)) (\(fmt(split.slowestBatch, 1)))")
            table.add(
                "latency: the watcher's polls p50/p99 ms (its CPU, left out above)",
                polls.map { fmt($0, 2) }.joined(separator: " / "), cpu: watcherCPU)
            table.add(
                "latency: the disk's flush of 8 kB every 50 ms, p50/p99/max ms (≥ 20 ms: count, ms in all)",
                [disk.p50, disk.p99, disk.max].map { fmt($0, 1) }.joined(separator: " / ")
                    + " (\(disk.stalls), \(fmt(disk.stalledMilliseconds, 0)))")
        }
        var watching: [String: Any] = [:]
        if let watcher {
            table.add(
                "latency watcher alone: cores of its thread / its server process",
                "\(fmt(watcher.herald, 3)) / \(fmt(watcher.postgres, 3))")
            watching = ["watcher_cores": watcher.herald + watcher.postgres, "watcher_herald_cores": watcher.herald]
        }
        return cpu.json.merging(watching) { $1 }.merging([
            "rate_per_second": 1_000, "seconds": seconds, "events": count, "observed": delays.count,
            "p50_ms": figures[0], "p95_ms": figures[1], "p99_ms": figures[2], "post_p50_ms": posts[0],
            "post_p99_ms": posts[1], "poll_p50_ms": polls[0], "poll_p99_ms": polls[1], "split": split.json,
            "disk_flush": disk.json,
            "watcher_cpu_herald_us_per_event": watcherCPU.heraldPerEvent,
            "watcher_cpu_postgres_us_per_event": watcherCPU.postgresPerEvent ?? 0,
        ]) { $1 }
    }

    /// Puts `count` events of `source` in the inbox through the ingest route, in process.
    func preload(source: String, count: Int) throws {
        for start in stride(from: 0, to: count, by: 100) {
            let response = service.send(
                .post, "/v1/events", body: population.eventBatch(source: source, start..<min(start + 100, count)))
            guard (200..<300).contains(response.status.rawValue) else {
                throw ServiceStartError(message: "bench: preloading events failed (\(response.status.rawValue))")
            }
        }
    }

    func fmt(_ value: Double, _ decimals: Int = 0) -> String { BenchCommand.fmt(value, decimals) }
}
