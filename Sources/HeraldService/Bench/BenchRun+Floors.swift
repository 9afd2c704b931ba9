import Foundation
import HeraldPostgres

/// The phases that measure what the pipeline cannot go below: the latency phase's writes alone at its pace, and
/// the pipeline's reads alone at full batches. They run last, with no worker running, each after the debt of what
/// came before is paid (a vacuum of the pipeline's tables, and autovacuum idle), so that they take no other phase's
/// background work and leave none to another.
extension BenchRun {
    /// Runs both; adds their rows and figures.
    mutating func floors(_ results: inout [String: Any]) throws {
        BenchCommand.progress("latency limit")
        try settle()
        results["latency_limit"] = try latencyLimit(results)
        BenchCommand.progress("read limit")
        results["read_limit"] = try readLimit(results)
    }

    /// The latency limit: the latency phase's writes alone, at its pace and batch size, then the same batches back
    /// to back (after the same vacuum, checkpoint and wait); adds their rows and returns their figures: the paced
    /// CPU per event over the limit phase's and the pipeline phase's, and its two factors, paced over back to back
    /// (the pace alone) and back to back over the limit phase (the batch size alone).
    mutating func latencyLimit(_ results: [String: Any]) throws -> [String: Any] {
        let paced = try BenchLatencyLimit.run(
            service, population: population, source: "bench-latency-limit", seconds: sizes.latencySeconds,
            rows: limitRows, pace: .latency)
        try settle()
        let backToBack = try BenchLatencyLimit.run(
            service, population: population, source: "bench-latency-back-to-back", seconds: sizes.latencySeconds,
            rows: limitRows, pace: .backToBack)
        try settle()
        let together = try BenchLatencyLimit.together(
            service, population: population, source: "bench-latency-together", seconds: sizes.latencySeconds,
            rows: limitRows)
        let own = paced.cpu.totalPerEvent
        let unpaced = backToBack.cpu.totalPerEvent
        let over = { (value: Double, base: Double?) in base.map { $0 > 0 ? value / $0 : 0 } ?? 0 }
        let pipeline = BenchTargets.cpu(results, "pipeline")
        let toLimit = over(own, BenchTargets.cpu(results, "limit"))
        let toPipeline = over(own, pipeline)
        let togetherToPipeline = over(together.totalPerEvent, pipeline)
        // Deciding in transactions of its own, a design pays ingest's rows at this pace (each POST commits before it
        // answers) and, on top, at least the pipeline's CPU per event, whose batches are the largest there are.
        let splitToPipeline = over(paced.ingest.totalPerEvent + (pipeline ?? 0), pipeline)
        let leastToPipeline = min(splitToPipeline, togetherToPipeline)
        let paceRatio = over(own, unpaced)
        let batchRatio = over(unpaced, BenchTargets.cpu(results, "limit"))
        table.add("latency limit: ingest's rows, 10 every 10 ms", "", cpu: paced.ingest)
        table.add("latency limit: the decisions' rows, 10 every 10 ms", "", cpu: paced.decisions)
        table.add(
            "latency limit: both, CPU ÷ limit's (÷ pipeline's)", "\(fmt(toLimit, 2)) (\(fmt(toPipeline, 2)))",
            cpu: paced.cpu)
        table.add("latency limit: ingest's rows, back to back", "", cpu: backToBack.ingest)
        table.add("latency limit: the decisions' rows, back to back", "", cpu: backToBack.decisions)
        table.add(
            "latency limit: 10 every 10 ms ÷ back to back (back to back ÷ limit's)",
            "\(fmt(paceRatio, 2)) (\(fmt(batchRatio, 2)))", cpu: backToBack.cpu)
        table.add(
            "latency limit: both in one transaction, 10 every 10 ms, CPU ÷ pipeline's", fmt(togetherToPipeline, 2),
            cpu: together)
        table.add(
            "latency limit: ingest's rows + pipeline, ÷ pipeline's (least floor)",
            "\(fmt(splitToPipeline, 2)) (\(fmt(leastToPipeline, 2)))")
        return paced.json.merging([
            "one_transaction": together.json.merging(["cpu_ratio_to_pipeline": togetherToPipeline]) { $1 },
            "split_ratio_to_pipeline": splitToPipeline, "least_ratio_to_pipeline": leastToPipeline,
            "batch": 10, "cpu_ratio_to_limit": toLimit, "cpu_ratio_to_pipeline": toPipeline,
            "back_to_back": backToBack.json, "pace_ratio": paceRatio, "batch_ratio": batchRatio,
        ]) { $1 }
    }

    /// The read limit: the pipeline's claim, locks, state and categories with the events' progress, then the claim,
    /// the locks and the progress alone, then the progress alone; the least the pipeline can cost is the limit's CPU
    /// plus the reads' minus the progress', which the limit phase writes too.
    mutating func readLimit(_ results: [String: Any]) throws -> [String: Any] {
        try preload(source: "bench-read-limit", count: sizes.pipelineEvents)
        try settle()
        let reads = try BenchReadLimit.reads(service, batch: batch, writers: workers)
        try preload(source: "bench-lock-limit", count: sizes.pipelineEvents)
        try settle()
        let locks = try BenchReadLimit.reads(service, batch: batch, writers: workers, state: false)
        try preload(source: "bench-progress-limit", count: sizes.pipelineEvents)
        try settle()
        let progress = try BenchReadLimit.progress(
            service, source: "bench-progress-limit", batch: batch, writers: workers)
        let limit = BenchTargets.cpu(results, "limit") ?? 0
        let floor = limit + reads.totalPerEvent - progress.totalPerEvent
        let lockFloor = limit + locks.totalPerEvent - progress.totalPerEvent
        let ratio = { (value: Double) in limit > 0 ? value / limit : 0 }
        // Herald's own deciding: its CPU in the pipeline less what it spends on the limit's rows and on the reads.
        let heraldIn = { (phase: String) in BenchTargets.figure(results, phase, "cpu_herald_us_per_event") ?? 0 }
        let deciding = heraldIn("pipeline") - heraldIn("limit") - (reads.heraldPerEvent - progress.heraldPerEvent)
        let cachedFloor = lockFloor + deciding
        table.add("read limit: claim, locks, state, categories, progress", "", cpu: reads)
        table.add("read limit: claim, locks, progress", "", cpu: locks)
        table.add("read limit: the progress alone", "", cpu: progress)
        table.add(
            "read limit: limit + reads − progress, CPU µs/event (÷ limit's)",
            "\(fmt(floor)) (\(fmt(ratio(floor), 2)))")
        table.add(
            "read limit: the same without state, CPU µs/event (÷ limit's)",
            "\(fmt(lockFloor)) (\(fmt(ratio(lockFloor), 2)))")
        table.add(
            "read limit: no state + herald's deciding (\(fmt(deciding))), CPU µs/event (÷ limit's)",
            "\(fmt(cachedFloor)) (\(fmt(ratio(cachedFloor), 2)))")
        return [
            "events": reads.events, "batch": batch, "writers": workers, "reads": reads.json, "locks": locks.json,
            "progress": progress.json, "floor_cpu_us_per_event": floor, "floor_ratio_to_limit": ratio(floor),
            "floor_without_state_cpu_us_per_event": lockFloor, "floor_without_state_ratio_to_limit": ratio(lockFloor),
            "herald_deciding_cpu_us_per_event": deciding,
            "floor_without_state_with_deciding_cpu_us_per_event": cachedFloor,
            "floor_without_state_with_deciding_ratio_to_limit": ratio(cachedFloor),
        ]
    }

    /// Pays the debt of the phases before, untimed (before the latency phase and each floor): vacuums the pipeline's
    /// tables and checkpoints, then waits (up to a minute) until no autovacuum runs.
    func settle() throws {
        try service.database { try BenchRepository.vacuumPipelineTables(on: $0) }
        let start = ContinuousClock.now
        while try service.database({ try BenchRepository.autovacuumWorkers(on: $0) }) > 0,
            BenchStatistics.seconds(since: start) < 60
        {
            Thread.sleep(forTimeInterval: 0.1)
        }
    }
}
