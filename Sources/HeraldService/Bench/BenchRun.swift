import Foundation
import HeraldPostgres

/// One benchmark run: the phases in order on one service, each adding its row to the table and its figures to the
/// JSON results.
struct BenchRun {
    let service: BenchService
    let sizes: BenchCommand.Sizes
    let population: BenchPopulation
    private(set) var table = BenchTable()

    init(service: BenchService, sizes: BenchCommand.Sizes) {
        self.service = service
        self.sizes = sizes
        population = BenchPopulation(users: sizes.users)
    }

    private var workers: Int { max(1, service.context.config.pipelineWorkers) }
    private var batch: Int { service.context.config.pipelineBatchSize }

    /// Runs every phase; returns the figures by phase.
    mutating func measure() throws -> [String: Any] {
        var results: [String: Any] = [:]
        BenchCommand.progress("loading population")
        var started = ContinuousClock.now
        try population.load(service)
        let loadSeconds = BenchStatistics.seconds(since: started)
        table.add("population: users (1-3 devices, 12 zones)", "\(sizes.users) in \(fmt(loadSeconds, 1)) s")
        results["population"] = ["users": sizes.users, "load_seconds": loadSeconds]

        BenchCommand.progress("limit")
        try preload(source: "bench-limit", count: sizes.limitEvents)
        let limit = try BenchLimit.run(
            service, source: "bench-limit", users: sizes.users, batch: batch, writers: workers)
        let limitRate = BenchStatistics.rate(limit.events, seconds: limit.seconds)
        let limitDeliveries = BenchStatistics.rate(limit.deliveries, seconds: limit.seconds)
        table.add("limit: raw PostgreSQL events/s (deliveries/s)", "\(fmt(limitRate)) (\(fmt(limitDeliveries)))")
        results["limit"] = [
            "events": limit.events, "deliveries": limit.deliveries, "seconds": limit.seconds, "writers": workers,
            "batch": batch, "events_per_second": limitRate, "deliveries_per_second": limitDeliveries,
        ]

        BenchCommand.progress("pipeline")
        try preload(source: "bench-pipeline", count: sizes.pipelineEvents)
        let peakReset = BenchStatistics.resetPeakResident()
        started = ContinuousClock.now
        var running = try service.startWorkers()
        defer { running?.stop() }
        try service.waitForDrain()
        let pipelineSeconds = BenchStatistics.seconds(since: started)
        let deliveries = try service.database {
            try BenchRepository.deliveryCount(eventSource: "bench-pipeline", on: $0)
        }
        let pipelineRate = BenchStatistics.rate(sizes.pipelineEvents, seconds: pipelineSeconds)
        let pipelineDeliveries = BenchStatistics.rate(deliveries, seconds: pipelineSeconds)
        let ratio = limitRate > 0 ? pipelineRate / limitRate : 0
        table.add("pipeline: events/s (deliveries/s)", "\(fmt(pipelineRate)) (\(fmt(pipelineDeliveries)))")
        table.add("pipeline ÷ limit", fmt(ratio, 2))
        results["pipeline"] = [
            "events": sizes.pipelineEvents, "deliveries": deliveries, "seconds": pipelineSeconds, "workers": workers,
            "batch": batch, "events_per_second": pipelineRate, "deliveries_per_second": pipelineDeliveries,
            "ratio_to_limit": ratio,
        ]

        BenchCommand.progress("aging")
        running?.stop()
        let history = try BenchAging.fill(
            service, days: sizes.agingDays, eventsPerDay: sizes.agingEventsPerDay, users: sizes.users)
        try preload(source: "bench-aged", count: sizes.pipelineEvents)
        started = ContinuousClock.now
        running = try service.startWorkers()
        try service.waitForDrain()
        let agedRate = BenchStatistics.rate(sizes.pipelineEvents, seconds: BenchStatistics.seconds(since: started))
        let expired = try BenchAging.expire(service)
        let aged = pipelineRate > 0 ? agedRate / pipelineRate : 0
        table.add(
            "aging: pipeline events/s over \(history.days) days of history (÷ fresh)",
            "\(fmt(agedRate)) (\(fmt(aged, 2)))")
        table.add(
            "aging: retention dropped partitions / keys in s",
            "\(expired.dropped) / \(expired.keys) in \(fmt(expired.seconds, 2))")
        results["aging"] = [
            "history_days": history.days, "history_events_per_day": history.eventsPerDay,
            "history_seconds": history.seconds, "events": sizes.pipelineEvents, "events_per_second": agedRate,
            "ratio_to_fresh": aged, "partitions_dropped": expired.dropped, "keys_trimmed": expired.keys,
            "retention_seconds": expired.seconds,
        ]

        BenchCommand.progress("ingest, no worker deciding")
        // First with no worker deciding (what the HTTP route and its inserts take alone), then as `herald serve`
        // runs, with the workers deciding the accepted events on the same cores.
        running?.stop()
        running = nil
        results["ingest_alone"] = try ingest(source: "bench-ingest-alone", label: "ingest, no worker deciding")
        BenchCommand.progress("ingest, workers deciding")
        running = try service.startWorkers()
        results["ingest"] = try ingest(source: "bench-ingest", label: "ingest, workers deciding")
        try service.waitForDrain()

        BenchCommand.progress("latency")
        results["latency"] = try latency(source: "bench-latency", seconds: sizes.latencySeconds)
        let peak = BenchStatistics.peakResidentMegabytes() ?? 0
        let peakScope = peakReset ? "phases 2-4" : "whole process"
        table.add("memory: peak RSS MB (\(peakScope))", fmt(peak, 1))
        results["memory"] = ["peak_rss_mb": peak, "peak_scope": peakScope]

        BenchCommand.progress("campaign")
        let campaign = try BenchCampaign.measure(service, users: sizes.campaignUsers)
        for (label, value) in campaign.rows { table.add(label, value) }
        results["campaign"] = campaign.json

        if sizes.soakSeconds > 0 {
            BenchCommand.progress("soak (\(sizes.soakSeconds) s)")
            let before = BenchStatistics.residentMegabytes() ?? 0
            _ = try latency(source: "bench-soak", seconds: sizes.soakSeconds)
            let after = BenchStatistics.residentMegabytes() ?? 0
            table.add("soak: RSS MB at start / end", "\(fmt(before, 1)) / \(fmt(after, 1))")
            results["soak"] = ["seconds": sizes.soakSeconds, "rss_start_mb": before, "rss_end_mb": after]
        }
        return results
    }

    /// Ingest: batches of 100 over loopback from 4 connections.
    private mutating func ingest(source: String, label: String) throws -> [String: Any] {
        let client = BenchClient(port: service.server.port ?? 0, adminKey: service.adminKey)
        let count = sizes.ingestEvents
        let batches = stride(from: 0, to: count, by: 100).map {
            population.eventBatch(source: source, $0..<min($0 + 100, count))
        }
        let started = ContinuousClock.now
        let latencies = try client.ingest(batches: batches, connections: 4)
        let seconds = BenchStatistics.seconds(since: started)
        let rate = BenchStatistics.rate(count, seconds: seconds)
        let p50 = BenchStatistics.percentile(latencies, 50)
        let p99 = BenchStatistics.percentile(latencies, 99)
        table.add("\(label): events/s accepted", fmt(rate))
        table.add("\(label): request p50 / p99 ms", "\(fmt(p50, 1)) / \(fmt(p99, 1))")
        return [
            "events": count, "batch": 100, "connections": 4, "seconds": seconds, "events_per_second": rate,
            "p50_ms": p50, "p99_ms": p99,
        ]
    }

    /// A steady 1,000 events/s (batches of 10 every 10 ms) for `seconds`, with a watcher timing each event from
    /// acceptance to its committed decision.
    private mutating func latency(source: String, seconds: Int) throws -> [String: Any] {
        let client = BenchClient(port: service.server.port ?? 0, adminKey: service.adminKey)
        let count = seconds * 1_000
        let bodies = stride(from: 0, to: count, by: 10).map {
            population.eventBatch(source: source, $0..<($0 + 10))
        }
        let firstSeq = try service.database { try BenchRepository.nextEventSeq(on: $0) }
        let lanes = try BenchThreads.run(2) { [service] lane in
            if lane == 0 {
                return try client.steady(bodies: bodies, interval: 0.01, connections: 4)
            }
            return try BenchLatencyWatch.delays(
                service, source: source, firstSeq: firstSeq, expected: count, interval: 0.005,
                timeout: Double(seconds) + 120)
        }
        let delays = lanes[1]
        let figures = [50.0, 95, 99].map { BenchStatistics.percentile(delays, $0) }
        let posts = [50.0, 99].map { BenchStatistics.percentile(lanes[0], $0) }
        if source == "bench-latency" {
            table.add(
                "latency at 1,000 events/s p50/p95/p99 ms", figures.map { fmt($0, 1) }.joined(separator: " / "))
            table.add("latency: its POSTs p50/p99 ms", posts.map { fmt($0, 1) }.joined(separator: " / "))
        }
        return [
            "rate_per_second": 1_000, "seconds": seconds, "events": count, "observed": delays.count,
            "p50_ms": figures[0], "p95_ms": figures[1], "p99_ms": figures[2], "post_p50_ms": posts[0],
            "post_p99_ms": posts[1],
        ]
    }

    /// Puts `count` events of `source` in the inbox through the ingest route, in process.
    private func preload(source: String, count: Int) throws {
        for start in stride(from: 0, to: count, by: 100) {
            let response = service.send(
                .post, "/v1/events", body: population.eventBatch(source: source, start..<min(start + 100, count)))
            guard (200..<300).contains(response.status.rawValue) else {
                throw ServiceStartError(message: "bench: preloading events failed (\(response.status.rawValue))")
            }
        }
    }

    private func fmt(_ value: Double, _ decimals: Int = 0) -> String { BenchCommand.fmt(value, decimals) }
}
