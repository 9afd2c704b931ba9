import Foundation
import HeraldPostgres

/// One benchmark run: the phases in order on one service, each adding its row to the table and its figures to the
/// JSON results.
struct BenchRun {
    let service: BenchService
    let sizes: BenchCommand.Sizes
    let population: BenchPopulation
    /// Statements to print after the pipeline and latency phases (`--explain-top`); 0 for none.
    let explainTop: Int
    var table = BenchTable()
    /// The shapes of the limit phases' rows, from a sample decision once the population is loaded.
    var limitRows = BenchLimitRows(shapes: [], users: 1, tokens: [])

    init(service: BenchService, sizes: BenchCommand.Sizes, explainTop: Int = 0) {
        self.service = service
        self.sizes = sizes
        self.explainTop = explainTop
        population = BenchPopulation(users: sizes.users)
    }

    var workers: Int { max(1, service.context.config.pipelineWorkers) }
    var batch: Int { service.context.config.pipelineBatchSize }

    /// Runs every phase; returns the figures by phase.
    mutating func measure() throws -> [String: Any] {
        var results: [String: Any] = [:]
        BenchCommand.progress("loading population")
        var started = ContinuousClock.now
        try population.load(service)
        let loadSeconds = BenchStatistics.seconds(since: started)
        table.add("population: users (1-3 devices, 12 zones)", "\(sizes.users) in \(fmt(loadSeconds, 1)) s")
        results["population"] = ["users": sizes.users, "load_seconds": loadSeconds]
        limitRows = try BenchLimitRows.sample(service, users: sizes.users)

        BenchCommand.progress("limit")
        try preload(source: "bench-limit", count: sizes.limitEvents)
        var cpuStart = service.cpu.read()
        let limit = try BenchLimit.run(
            service, source: "bench-limit", rows: limitRows, batch: batch, writers: workers)
        var cpu = service.cpu.usage(since: cpuStart, events: limit.events)
        let limitRate = BenchStatistics.rate(limit.events, seconds: limit.seconds)
        let limitDeliveries = BenchStatistics.rate(limit.deliveries, seconds: limit.seconds)
        table.add(
            "limit: raw PostgreSQL events/s (deliveries/s)", "\(fmt(limitRate)) (\(fmt(limitDeliveries)))", cpu: cpu)
        results["limit"] = cpu.json.merging([
            "events": limit.events, "deliveries": limit.deliveries, "seconds": limit.seconds, "writers": workers,
            "batch": batch, "events_per_second": limitRate, "deliveries_per_second": limitDeliveries,
        ]) { $1 }

        BenchCommand.progress("pipeline")
        try preload(source: "bench-pipeline", count: sizes.pipelineEvents)
        let peakReset = BenchStatistics.resetPeakResident()
        try BenchStatements.reset(service)
        var decidedBefore = service.eventsDecided
        cpuStart = service.cpu.read()
        started = ContinuousClock.now
        var running = try service.startWorkers()
        defer { running?.stop() }
        try service.waitForDecided(sizes.pipelineEvents, since: decidedBefore)
        let pipelineSeconds = BenchStatistics.seconds(since: started)
        cpu = service.cpu.usage(since: cpuStart, events: sizes.pipelineEvents)
        // The statements first: the drain check below is the benchmark's, not the pipeline's.
        let pipelineStatements = try BenchStatements.report(service, phase: "pipeline", count: explainTop)
        try service.waitForDrain()
        let deliveries = try service.database {
            try BenchRepository.deliveryCount(eventSource: "bench-pipeline", on: $0)
        }
        let pipelineRate = BenchStatistics.rate(sizes.pipelineEvents, seconds: pipelineSeconds)
        let pipelineDeliveries = BenchStatistics.rate(deliveries, seconds: pipelineSeconds)
        let ratio = limitRate > 0 ? pipelineRate / limitRate : 0
        table.add(
            "pipeline: events/s (deliveries/s)", "\(fmt(pipelineRate)) (\(fmt(pipelineDeliveries)))", cpu: cpu)
        table.add("pipeline ÷ limit", fmt(ratio, 2))
        results["pipeline"] = cpu.json.merging([
            "events": sizes.pipelineEvents, "deliveries": deliveries, "seconds": pipelineSeconds, "workers": workers,
            "batch": batch, "events_per_second": pipelineRate, "deliveries_per_second": pipelineDeliveries,
            "ratio_to_limit": ratio,
        ]) { $1 }
        if explainTop > 0 { results["statements_pipeline"] = pipelineStatements }

        BenchCommand.progress("aging")
        running?.stop()
        let history = try BenchAging.fill(
            service, days: sizes.agingDays, eventsPerDay: sizes.agingEventsPerDay, users: sizes.users)
        try preload(source: "bench-aged", count: sizes.pipelineEvents)
        decidedBefore = service.eventsDecided
        cpuStart = service.cpu.read()
        started = ContinuousClock.now
        running = try service.startWorkers()
        try service.waitForDecided(sizes.pipelineEvents, since: decidedBefore)
        let agedRate = BenchStatistics.rate(sizes.pipelineEvents, seconds: BenchStatistics.seconds(since: started))
        cpu = service.cpu.usage(since: cpuStart, events: sizes.pipelineEvents)
        try service.waitForDrain()
        let expired = try BenchAging.expire(service)
        let aged = pipelineRate > 0 ? agedRate / pipelineRate : 0
        table.add(
            "aging: pipeline events/s over \(history.days) days of history (÷ fresh)",
            "\(fmt(agedRate)) (\(fmt(aged, 2)))", cpu: cpu)
        table.add(
            "aging: retention dropped partitions / keys in s",
            "\(expired.dropped) / \(expired.keys) in \(fmt(expired.seconds, 2))")
        results["aging"] = cpu.json.merging([
            "history_days": history.days, "history_events_per_day": history.eventsPerDay,
            "history_seconds": history.seconds, "events": sizes.pipelineEvents, "events_per_second": agedRate,
            "ratio_to_fresh": aged, "partitions_dropped": expired.dropped, "keys_trimmed": expired.keys,
            "retention_seconds": expired.seconds,
        ]) { $1 }

        BenchCommand.progress("ingest limit")
        running?.stop()
        running = nil
        let ingestLimit = try ingestLimit(&results)
        BenchCommand.progress("ingest, no worker deciding")
        // First with no worker deciding (what the HTTP route and its inserts take alone), then as `herald serve`
        // runs, with the workers deciding the accepted events on the same cores.
        results["ingest_alone"] = try ingest(
            source: "bench-ingest-alone", label: "ingest, no worker deciding", limit: ingestLimit)
        BenchCommand.progress("ingest, workers deciding")
        running = try service.startWorkers()
        results["ingest"] = try ingest(source: "bench-ingest", label: "ingest, workers deciding", limit: ingestLimit)
        try service.waitForDrain()

        BenchCommand.progress("latency")
        // A steady 1,000 events/s, not the tail of the ingest phases: their vacuum debt is paid first, untimed.
        try settle()
        try BenchStatements.reset(service)
        results["latency"] = try latency(source: "bench-latency", seconds: sizes.latencySeconds)
        let latencyStatements = try BenchStatements.report(service, phase: "latency", count: explainTop)
        if explainTop > 0 { results["statements_latency"] = latencyStatements }
        let peak = BenchStatistics.peakResidentMegabytes() ?? 0
        let peakScope = peakReset ? "phases 2-4" : "whole process"
        table.add("memory: peak RSS MB (\(peakScope))", fmt(peak, 1))
        results["memory"] = ["peak_rss_mb": peak, "peak_scope": peakScope]

        BenchCommand.progress("mixed")
        results["mixed"] = try mixed()

        BenchCommand.progress("campaign")
        let campaign = try BenchCampaign.measure(service, users: sizes.campaignUsers)
        for row in campaign.rows { table.add(row.label, row.value, cpu: row.cpu) }
        results["campaign"] = campaign.json

        if sizes.soakSeconds > 0 {
            BenchCommand.progress("soak (\(sizes.soakSeconds) s)")
            results["soak"] = try soak(seconds: sizes.soakSeconds)
        }

        running?.stop()
        running = nil
        try floors(&results)
        return results
    }
}
