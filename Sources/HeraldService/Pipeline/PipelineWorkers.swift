import Foundation
import HeraldCore
import HeraldObservability
import HeraldPostgres
import Synchronization

/// The pipeline's workers: their own connection pool (so deciding never starves the HTTP handlers), one thread
/// per worker, and a LISTEN connection whose notifications wake them.
final class PipelineWorkers: BackgroundService {
    /// What runs while the workers are started.
    private struct Running: Sendable {
        let pool: PostgresPool
        let wake: ChannelWake
    }

    let name = "pipeline workers"
    private let conninfo: String
    private let count: Int
    private let processor: BatchProcessor
    private let metrics: PipelineMetrics
    private let logger: Logger
    private let clock: @Sendable () -> Date
    private let pollInterval: Duration
    private let threads: ServiceThread
    private let categories = CategoryVersionCache()
    private let claimsInFlight = ClaimsInFlight()
    private let running: Mutex<Running?> = Mutex(nil)

    /// `count` workers on `conninfo`, started by `start()`.
    init(
        conninfo: String, count: Int, processor: BatchProcessor, metrics: PipelineMetrics, logger: Logger,
        clock: @escaping @Sendable () -> Date, pollInterval: Duration = .seconds(1)
    ) {
        self.conninfo = conninfo
        self.count = count
        self.processor = processor
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
        self.pollInterval = pollInterval
        threads = ServiceThread(threadNames: (1...max(1, count)).map { "herald-pipeline-\($0)" })
    }

    /// Opens the pool and the listener, then starts the workers.
    func start() throws {
        let pool = try PostgresPool(
            PostgresPool.Configuration(conninfo: conninfo, size: max(1, count), threadName: "herald-pipeline-pg"))
        let wake: ChannelWake
        do {
            wake = try ChannelWake(
                conninfo: conninfo, channel: EventRepository.channel, threadName: "herald-pipeline-listen"
            ) { [threads] in threads.notifyOne() }
        } catch {
            pool.close()
            throw error
        }
        running.withLock { running in
            precondition(running == nil, "pipeline workers started twice")
            running = Running(pool: pool, wake: wake)
        }
        threads.start { [self] index in
            PipelineWorker(
                index: index, pool: pool, processor: processor, categories: categories, claimsInFlight: claimsInFlight,
                loop: threads,
                metrics: metrics, logger: logger,
                clock: clock, pollInterval: pollInterval, maintains: index == 0
            ).run()
        }
        logger.info(
            "pipeline workers started",
            ["pipeline.workers": .int(count), "pipeline.batch": .int(processor.limits.events)])
    }

    /// Wakes the workers now (e.g. after an ingest in the same process).
    func notify() { threads.notify() }

    /// Lets running batches finish, stops the workers and the listener, closes their connections.
    func stop() {
        threads.stop()
        guard let stopping = running.withLock({ $0.take() }) else { return }
        stopping.wake.stop()
        stopping.pool.close()
    }
}
