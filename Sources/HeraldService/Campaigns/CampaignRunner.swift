import Foundation
import HeraldObservability
import HeraldPostgres
import Synchronization

/// Runs due campaign waves, batch by batch, on its own thread and its own connection, beside the pipeline
/// workers. Several herald processes may each run one: waves are claimed with SKIP LOCKED, so no batch runs twice.
public final class CampaignRunner: Sendable, BackgroundService {
    /// How the runner sizes and paces its batches.
    public struct Settings: Sendable, Hashable {
        /// Recipients per batch (one inbox event each).
        public var batchSize: Int
        /// The shortest time a wave's batches are spread over.
        public var minimumWaveSeconds: Double
        /// The longest sleep between looks for due waves.
        public var pollInterval: Duration

        /// Settings; the defaults are the service's.
        public init(
            batchSize: Int = ServiceConfig.defaults.campaignBatchSize,
            minimumWaveSeconds: Double = Double(ServiceConfig.defaults.campaignMinWaveSeconds),
            pollInterval: Duration = .seconds(1)
        ) {
            self.batchSize = batchSize
            self.minimumWaveSeconds = minimumWaveSeconds
            self.pollInterval = pollInterval
        }
    }

    let name = "campaign runner"
    private let conninfo: String
    private let settings: Settings
    private let clock: @Sendable () -> Date
    private let logger: Logger
    private let thread = ServiceThread(name: "herald-campaigns")
    private let pool: Mutex<PostgresPool?> = Mutex(nil)

    /// A runner on `conninfo`, started by `start()`.
    public init(
        conninfo: String, settings: Settings, logger: Logger, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.conninfo = conninfo
        self.settings = settings
        self.clock = clock
        self.logger = logger
    }

    /// Opens the runner's connection and starts its thread.
    public func start() throws {
        let pool = try PostgresPool(
            PostgresPool.Configuration(conninfo: conninfo, size: 1, threadName: "herald-campaign-pg"))
        self.pool.withLock { opened in
            precondition(opened == nil, "campaign runner started twice")
            opened = pool
        }
        thread.start { [self] in run(on: pool) }
        logger.info(
            "campaign runner started",
            [
                "campaign.batch": .int(settings.batchSize),
                "campaign.min_wave_seconds": .int(Int(settings.minimumWaveSeconds)),
            ])
    }

    /// Runs every batch that is due at `now` on `connection` until none is (ignoring the pacing of waves that
    /// are not yet due); returns the reports. For benchmarks and tests that drive waves without the thread.
    public static func runDue(
        now: Date, settings: Settings, on connection: PostgresConnection
    ) throws -> [CampaignBatchReport] {
        var reports: [CampaignBatchReport] = []
        while let report = try CampaignRepository.runBatch(
            now: now, batchSize: settings.batchSize, minimumWaveDuration: settings.minimumWaveSeconds,
            on: connection)
        {
            reports.append(report)
        }
        return reports
    }

    /// Logs what a batch did that an operator should know of: a finished wave, a batch skipped for a taken key.
    static func log(_ report: CampaignBatchReport, to logger: Logger) {
        if let batch = report.skippedBatch {
            logger.warning(
                "campaign batch skipped: its event key was already taken",
                [
                    "campaign.id": .string(report.campaignId), "campaign.wave": .int(report.wave),
                    "campaign.batch": .int(batch),
                ])
        }
        if report.waveFinished {
            logger.info(
                "campaign wave finished",
                ["campaign.id": .string(report.campaignId), "campaign.wave": .int(report.wave)])
        }
    }

    /// Wakes the runner now (e.g. after planning a wave due at once).
    public func notify() { thread.notify() }

    /// Lets the running batch commit, stops the thread and closes the connection.
    public func stop() {
        thread.stop()
        pool.withLock { $0.take() }?.close()
    }

    private func run(on pool: PostgresPool) {
        var failures = 0
        while thread.isRunning {
            let seen = thread.generation
            do {
                let (report, nextDue) = try pool.withConnectionBlocking { [settings, clock] connection in
                    let report = try CampaignRepository.runBatch(
                        now: clock(), batchSize: settings.batchSize,
                        minimumWaveDuration: settings.minimumWaveSeconds, on: connection)
                    return (report, report == nil ? try CampaignRepository.nextDue(on: connection) : nil)
                }
                failures = 0
                if let report {
                    Self.log(report, to: logger)
                    continue
                }
                thread.wait(since: seen, timeout: sleep(until: nextDue))
            } catch {
                failures += 1
                if failures == 1 || failures % 100 == 0 {
                    logger.warning(
                        "campaign batch failed; retrying",
                        ["error": .string(String(describing: error)), "failures": .int(failures)])
                }
                thread.pause(.milliseconds(min(2_000, 25 << min(failures, 7))))
            }
        }
    }

    /// How long to sleep: until the next batch is due, at most the poll interval.
    private func sleep(until nextDue: Date?) -> Duration {
        guard let nextDue else { return settings.pollInterval }
        let seconds = max(0.001, nextDue.timeIntervalSince(clock()))
        return min(settings.pollInterval, .milliseconds(Int(seconds * 1_000)))
    }
}
