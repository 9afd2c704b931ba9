import Foundation
import HeraldPostgres

/// Aging: history is written into past day partitions (events with their keys, decisions, two sent deliveries
/// per event, as the pipeline leaves them), the pipeline phase runs again over it, and retention then drops it
/// while the workers run. The ratio of the aged run to the fresh one shows whether throughput degrades as the
/// tables age.
enum BenchAging {
    /// The history written: `days` past days of `eventsPerDay` events each.
    struct History {
        var days: Int
        var eventsPerDay: Int
        var seconds: Double
    }

    /// Writes the history: the days before yesterday, so that one day of retention drops all of it. With no days,
    /// the aged run is a control: the same second run over no history.
    static func fill(_ service: BenchService, days: Int, eventsPerDay: Int, users: Int) throws -> History {
        let start = ContinuousClock.now
        let today = try service.database { try RetentionRepository.today(on: $0) }
        let first = today - days - 1
        if days > 0 {
            try service.database { connection -> Void in
                try RetentionRepository.ensurePartitions(from: first, through: today - 2, on: connection)
            }
        }
        for day in stride(from: first, through: today - 2, by: 1) {
            try service.database { connection -> Void in
                try BenchRepository.writeHistoryDay(day, events: eventsPerDay, users: users, on: connection)
            }
        }
        // Past days are long written, checkpointed and vacuumed in a real installation: so are they here, so the
        // aged run measures the tables' age, not the background work of having just written them.
        try service.database { try BenchRepository.settleHistory(on: $0) }
        return History(days: days, eventsPerDay: eventsPerDay, seconds: BenchStatistics.seconds(since: start))
    }

    /// Runs retention with one day kept: every history partition goes. Returns the partitions dropped and the
    /// seconds the run took (the drops and the key trimming).
    static func expire(_ service: BenchService) throws -> (dropped: Int, keys: Int, seconds: Double) {
        let job = RetentionJob(
            settings: RetentionJob.Settings(retentionDays: 1), pool: service.context.pool,
            logger: service.context.logger, metrics: service.context.metrics, clock: service.context.clock)
        let start = ContinuousClock.now
        let report = try job.runOnce()
        return (report.dropped.count, report.keysTrimmed, BenchStatistics.seconds(since: start))
    }
}
