import Foundation
import HeraldCore
import HeraldObservability
import HeraldPostgres
import Synchronization

/// The pipeline's workers: their own connection pool (so deciding never starves the HTTP handlers), one thread
/// per worker, and a LISTEN connection whose notifications wake them.
final class PipelineWorkers: Sendable {
    private let pool: PostgresPool
    private let listener: PostgresListener
    private let wakeUp = PipelineWakeUp()
    private let finished = DispatchSemaphore(value: 0)
    private let count: Int
    private let listening: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Starts `count` workers on `conninfo`.
    init(
        conninfo: String, count: Int, processor: BatchProcessor, metrics: PipelineMetrics, logger: Logger,
        clock: @escaping @Sendable () -> Date, pollInterval: Duration = .seconds(1)
    ) throws {
        self.count = count
        pool = try PostgresPool(
            PostgresPool.Configuration(conninfo: conninfo, size: max(1, count), threadName: "herald-pipeline-pg"))
        listener = try PostgresListener(
            conninfo: conninfo, channels: [EventRepository.channel], threadName: "herald-pipeline-listen")
        let events = listener.events
        listening.withLock { [wakeUp] task in
            task = Task { for await _ in events { wakeUp.notifyOne() } }
        }
        for index in 0..<count {
            let worker = PipelineWorker(
                index: index, pool: pool, processor: processor, wakeUp: wakeUp, metrics: metrics, logger: logger,
                clock: clock, pollInterval: pollInterval, maintains: index == 0)
            let thread = Thread { [finished] in
                worker.run()
                finished.signal()
            }
            thread.name = "herald-pipeline-\(index + 1)"
            thread.start()
        }
    }

    /// Wakes the workers now (e.g. after an ingest in the same process).
    func notify() { wakeUp.notify() }

    /// Lets running batches finish, stops the workers and the listener, closes their connections.
    func stop() {
        wakeUp.stop()
        for _ in 0..<count { finished.wait() }
        listener.stop()
        listening.withLock { $0?.cancel() }
        pool.close()
    }
}
