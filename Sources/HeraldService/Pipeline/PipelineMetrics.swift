import Foundation
import HeraldObservability
import Synchronization

/// The pipeline's metrics: counters through the shared registry, gauges from values the workers refresh.
final class PipelineMetrics: Sendable {
    let metrics: Metrics
    /// Undecided events at the last refresh.
    let backlog = Atomic<Int>(0)
    /// Queued deliveries per platform at the last refresh.
    let queueDepth = Mutex<[String: Int]>([:])

    init(_ metrics: Metrics) {
        self.metrics = metrics
    }

    /// Registers the gauges; call once per registry.
    func registerGauges() {
        metrics.registerGauge("herald_pipeline_backlog", help: "Accepted events not yet decided.") { [self] in
            Double(self.backlog.load(ordering: .relaxed))
        }
        for platform in ["apns", "fcm", "webpush", "wns"] {
            metrics.registerGauge(
                "herald_delivery_queue_depth", help: "Queued deliveries waiting for a consumer, by platform.",
                labels: ["platform": platform]
            ) { [self] in Double(self.queueDepth.withLock { $0[platform] ?? 0 }) }
        }
    }

    /// Counts one finished batch.
    func record(_ report: BatchReport) {
        guard report.didWork else { return }
        metrics.increment("herald_pipeline_batches_total", help: "Worker transactions that claimed work.")
        metrics.increment(
            "herald_pipeline_events_decided_total", help: "Events decided completely.", by: Double(report.eventsDone))
        metrics.increment(
            "herald_pipeline_timers_fired_total", help: "Collapse-window timers fired.", by: Double(report.timers))
        for (outcome, count) in report.outcomes {
            metrics.increment(
                "herald_pipeline_decisions_total", help: "Decisions by outcome (digests as digest.<outcome>).",
                labels: ["outcome": outcome], by: Double(count))
        }
        for (platform, count) in report.queued {
            metrics.increment(
                "herald_deliveries_queued_total", help: "Deliveries put on the queue, by platform.",
                labels: ["platform": platform], by: Double(count))
        }
    }

    /// Counts a failed batch (rolled back; its events are retried).
    func recordFailure() {
        metrics.increment(
            "herald_pipeline_batch_failures_total", help: "Worker transactions that failed and rolled back.")
    }

    /// Counts ingested events by result (`accepted`, `duplicate`, `conflict`, `invalid`, `unknown_category`, …).
    func recordIngest(_ counts: [String: Int]) {
        for (result, count) in counts where count > 0 {
            metrics.increment(
                "herald_events_ingested_total", help: "Events received, by result.", labels: ["result": result],
                by: Double(count))
        }
    }

    /// Counts what a claim did besides leasing.
    func recordClaim(leased: [String], expired: [String], leaseExpired: [String]) {
        for platform in leased {
            metrics.increment(
                "herald_deliveries_claimed_total", help: "Deliveries leased to consumers, by platform.",
                labels: ["platform": platform])
        }
        recordExpiries(expired: expired, leaseExpired: leaseExpired)
    }

    /// Counts dropped expired deliveries and leases taken back.
    func recordExpiries(expired: [String], leaseExpired: [String]) {
        for platform in expired {
            metrics.increment(
                "herald_deliveries_expired_total", help: "Deliveries dropped because they expired unsent, by platform.",
                labels: ["platform": platform])
        }
        for platform in leaseExpired {
            metrics.increment(
                "herald_delivery_lease_expiries_total", help: "Leases that ran out and went back to the queue.",
                labels: ["platform": platform])
        }
    }

    /// Counts acks by outcome.
    func recordAcks(_ counts: [String: Int]) {
        for (outcome, count) in counts where count > 0 {
            metrics.increment(
                "herald_delivery_acks_total", help: "Delivery acks by outcome.", labels: ["outcome": outcome],
                by: Double(count))
        }
    }
}
