import Foundation
import HeraldCore
import HeraldObservability

/// Receipts per category and event in `/metrics`: `herald_receipts_total{category, event}`; the opened/displayed
/// ratio of a category is `rate(…{event="opened"}) / rate(…{event="displayed"})`.
struct ReceiptMetrics: Sendable {
    static let name = "herald_receipts_total"
    let metrics: Metrics

    init(_ metrics: Metrics) {
        self.metrics = metrics
    }

    /// Counts newly stored receipts.
    func record(_ stored: [(kind: ReceiptKind, categoryId: String, at: Date)]) {
        for receipt in stored {
            metrics.increment(
                Self.name, help: "Receipts the apps reported (displayed, opened, dismissed), by category.",
                labels: ["category": receipt.categoryId, "event": receipt.kind.rawValue])
        }
    }
}
