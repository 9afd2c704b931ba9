import Foundation
import HeraldCore
import HeraldObservability
import HeraldPostgres

/// One worker: on its own thread, claims and decides batches until the queue is empty, then sleeps until a
/// NOTIFY that no other worker's claim has covered (or the slow poll that catches timers and anything a lost
/// notification missed).
struct PipelineWorker: Sendable {
    let index: Int
    let pool: PostgresPool
    let processor: BatchProcessor
    /// Shared by the workers of one process.
    let categories: CategoryVersionCache
    /// Shared by the workers of one process.
    let claimsInFlight: ClaimsInFlight
    let loop: ServiceThread
    let metrics: PipelineMetrics
    let logger: Logger
    let clock: @Sendable () -> Date
    let pollInterval: Duration
    /// The first worker also refreshes the gauges and takes back expired leases.
    let maintains: Bool

    /// The loop; returns once `loop` is stopped.
    func run() {
        var failures = 0
        var lastMaintenance = ContinuousClock.now - .seconds(60)
        var lastGauges = lastMaintenance
        while loop.isRunning {
            if maintains, ContinuousClock.now - lastMaintenance >= .seconds(2) {
                lastMaintenance = ContinuousClock.now
                let gauges = ContinuousClock.now - lastGauges >= Self.gaugeInterval
                if gauges { lastGauges = lastMaintenance }
                maintain(refreshingGauges: gauges)
            }
            do {
                let report = try pool.withConnectionBlocking {
                    [processor, categories, claimsInFlight, clock, loop] connection in
                    // After the connection is ours, right before the claim: what was notified until now, it sees.
                    loop.beginClaim()
                    return try processor.run(
                        on: PostgresDecisionStore(
                            connection, categoryCache: categories, claimsInFlight: claimsInFlight), now: clock())
                }
                metrics.record(report)
                for claim in report.undecodable {
                    logger.error(
                        "stored event does not decode; rejected",
                        [
                            "event.seq": .int(Int(claim.seq)), "event.source": .string(claim.source),
                            "event.id": .string(claim.id), "outcome": .string(Outcome.rejectedUndecodable.rawValue),
                        ])
                }
                failures = 0
                if report.full {
                    // More is waiting: recruit an idle worker, then take the next batch.
                    loop.recruit()
                    continue
                }
            } catch {
                metrics.recordFailure()
                failures += 1
                // A database restart fails every batch until it is back: log the first failure of a run, then
                // every hundredth, and back off up to two seconds.
                if failures == 1 || failures % 100 == 0 {
                    logger.warning(
                        "pipeline batch failed; retrying",
                        [
                            "worker": .int(index), "error": .string(String(describing: error)),
                            "failures": .int(failures),
                        ])
                }
                loop.pause(.milliseconds(min(2_000, 25 << min(failures, 7))))
                continue
            }
            loop.waitForWork(timeout: pollInterval)
        }
    }

    /// How often the backlog and queue-depth gauges are counted again (Prometheus scrapes every 15 s by default).
    static let gaugeInterval: Duration = .seconds(15)
    /// The gauges count at most this many events, and this many deliveries per platform: past it they report the
    /// cap (the backlog: its upper bound), so a counting walk never grows with a stalled queue.
    static let gaugeCap = 10_000

    /// Takes back expired leases every time; counts the gauges when asked.
    private func maintain(refreshingGauges: Bool) {
        do {
            let (gauges, leaseExpired) = try pool.withConnectionBlocking {
                [clock] connection -> ((backlog: Int, depth: [String: Int])?, [String]) in
                let leaseExpired = try DeliveryRepository.expireLeases(now: clock(), on: connection)
                guard refreshingGauges else { return (nil, leaseExpired) }
                let bound = try EventRepository.backlogUpperBound(on: connection)
                let backlog =
                    bound > Self.gaugeCap ? bound : try EventRepository.backlog(upTo: bound + 1, on: connection)
                return ((backlog, try DeliveryRepository.queueDepth(cap: Self.gaugeCap, on: connection)), leaseExpired)
            }
            if let gauges {
                metrics.backlog.store(gauges.backlog, ordering: .relaxed)
                metrics.queueDepth.withLock { $0 = gauges.depth }
            }
            metrics.recordExpiries(expired: [], leaseExpired: leaseExpired)
        } catch {
            logger.debug("pipeline gauges not refreshed", ["error": .string(String(describing: error))])
        }
    }
}
