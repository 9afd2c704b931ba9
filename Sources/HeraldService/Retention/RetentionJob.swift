import Foundation
import HeraldObservability
import HeraldPostgres

/// Keeps the day partitions of events, decisions, digests and deliveries in shape, on a thread of its own: at
/// start and then every hour it creates the partitions of the next days, drops those wholly older than the
/// retention period, and trims the idempotency keys of the events dropped. Every instance runs it; the steps are
/// idempotent, so two instances running together only find less to do.
struct RetentionJob: BackgroundService {
    struct Settings: Sendable {
        /// Days rows are kept: a day's partition goes once it ended more than this many days ago.
        var retentionDays: Int
        /// Partitions created ahead of today.
        var daysAhead = MigrateCommand.partitionDaysAhead
        /// Seconds between runs.
        var intervalSeconds: Double = 3_600
        /// Idempotency keys deleted per statement.
        var keyChunk = 10_000
        /// Users whose unread counts a dropped day of decisions lowers, read per statement.
        var unreadChunk = 10_000
    }

    /// What one run did.
    struct Report: Sendable, Equatable {
        var created: [String] = []
        var dropped: [String] = []
        var keysTrimmed = 0
    }

    let settings: Settings
    let pool: PostgresPool
    let logger: Logger
    let metrics: Metrics
    let clock: @Sendable () -> Date
    private let loop = ServiceThread(name: "herald-retention")

    var name: String { "retention" }

    /// Runs now and then every interval until stopped; a failed run is counted and logged, and waits its turn too.
    func start() {
        let interval = Duration.seconds(settings.intervalSeconds)
        loop.startRepeating { [self] in
            _ = try runOnce()
            return interval
        } recover: { [self] error in
            metrics.increment(Self.runs, help: Self.runsHelp, labels: ["outcome": "failed"])
            logger.warning("retention run failed; it runs again later", ["error": .string("\(error)")])
            return interval
        }
    }

    /// Finishes the step in hand and stops.
    func stop() {
        loop.stop()
    }

    /// One run: partitions ahead; queued deliveries of old days whose time to live ran out marked expired; expired
    /// partitions dropped one by one in order (a drop that cannot get its lock in time ends the dropping until the
    /// next run); keys trimmed in chunks.
    func runOnce() throws -> Report {
        var report = Report()
        let (today, created) = try pool.withConnectionBlocking { [settings] connection in
            let today = try RetentionRepository.today(on: connection)
            return (today, try RetentionRepository.ensurePartitions(daysAhead: settings.daysAhead, on: connection))
        }
        report.created = created
        let now = clock()
        let expired = try pool.withConnectionBlocking { [settings] connection in
            let keepFrom = today - settings.retentionDays
            _ = try RetentionRepository.expireQueuedDeliveries(before: keepFrom, now: now, on: connection)
            return try RetentionRepository.expiredPartitions(before: keepFrom, on: connection)
        }
        for partition in expired {
            do {
                try pool.withConnectionBlocking { [settings] connection in
                    try RetentionRepository.drop(partition, now: now, chunk: settings.unreadChunk, on: connection)
                }
                report.dropped.append(partition.name)
            } catch {
                // The rest waits for the next run too, so an events partition never goes before its decisions.
                logger.warning(
                    "partition not dropped; retention goes on next run",
                    ["db.partition": .string(partition.name), "error": .string("\(error)")])
                break
            }
        }
        while true {
            let trimmed = try pool.withConnectionBlocking { [settings] connection in
                try RetentionRepository.trimKeys(limit: settings.keyChunk, on: connection)
            }
            report.keysTrimmed += trimmed
            // A stop asked for meanwhile leaves the rest of the keys to the next run.
            if trimmed < settings.keyChunk || !loop.isRunning { break }
        }
        metrics.increment(Self.runs, help: Self.runsHelp, labels: ["outcome": "done"])
        metrics.increment(Self.dropped, help: Self.droppedHelp, by: Double(report.dropped.count))
        metrics.increment(Self.keys, help: Self.keysHelp, by: Double(report.keysTrimmed))
        if !report.created.isEmpty || !report.dropped.isEmpty || report.keysTrimmed > 0 {
            logger.info(
                "retention",
                [
                    "db.partitions.created": .string(report.created.joined(separator: ",")),
                    "db.partitions.dropped": .string(report.dropped.joined(separator: ",")),
                    "db.event_keys.trimmed": .int(report.keysTrimmed),
                    "retention.days": .int(settings.retentionDays),
                ])
        }
        return report
    }

    static let runs = "herald_retention_runs_total"
    static let runsHelp = "Retention runs by outcome: done, failed."
    static let dropped = "herald_retention_partitions_dropped_total"
    static let droppedHelp = "Day partitions dropped because they were older than the retention period."
    static let keys = "herald_retention_event_keys_trimmed_total"
    static let keysHelp = "Idempotency keys of dropped events deleted."
}
