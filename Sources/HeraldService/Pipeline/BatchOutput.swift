import Foundation
import HeraldCore
import HeraldPostgres

/// Everything one batch decided, written at the end in the batch's transaction: deliveries by COPY, the rest in
/// one pipeline that ends with COMMIT (one round trip).
struct BatchOutput {
    var decisions: [DecisionRecord] = []
    var digests: [DecisionDigestRecord] = []
    private(set) var deliveries: [DeliveryRow] = []
    private var queuedIds: Set<String> = []
    var progress: [EventProgress] = []
    /// Timers that fired (or lost their user) and are deleted.
    var firedTimers: [TimerRecord] = []

    /// Adds queue rows and returns their ids; a row already queued in this batch is not added twice.
    mutating func queue(_ deliveries: [Delivery], eventSource: String?, eventId: String?) -> [String] {
        deliveries.map { delivery in
            let row = DeliveryRow(delivery, eventSource: eventSource, eventId: eventId)
            if queuedIds.insert(row.id).inserted { self.deliveries.append(row) }
            return row.id
        }
    }

    /// Above this many queue rows a batch writes them by COPY.
    static let copyThreshold = 64

    /// Whether the batch did anything.
    var isEmpty: Bool {
        decisions.isEmpty && digests.isEmpty && deliveries.isEmpty && progress.isEmpty && firedTimers.isEmpty
    }

    /// Writes the batch and commits; `book` holds the recipients' new state.
    func write(_ book: RecipientBook, now: Date, on connection: PostgresConnection) throws {
        var queries: [BoundQuery] = []
        let plain = deliveries.filter { $0.delivery.coalesceKey == nil }
        // COPY streams a large batch fastest; a small one (the usual case when traffic is light and latency is what
        // counts) is cheaper as one more statement in the closing pipeline.
        if plain.count > Self.copyThreshold {
            try DeliveryRepository.copy(plain, now: now, on: connection)
        } else if let insert = DeliveryRepository.insertQuery(plain, now: now) {
            queries.append(insert)
        }
        if let insert = DecisionRepository.insertQuery(decisions, now: now) { queries.append(insert) }
        if let insert = DecisionRepository.insertDigestsQuery(digests, now: now) { queries.append(insert) }
        queries += try RecipientStateRepository.writeQueries(book.write, now: now)
        queries += TimerRepository.writeQueries(deleting: firedTimers, arming: Array(book.armed.values))
        queries += DeliveryRepository.coalescingQueries(
            deliveries.filter { $0.delivery.coalesceKey != nil }, now: now)
        if !progress.isEmpty { queries.append(EventRepository.progressQuery(progress, at: now)) }
        queries.append(PipelineRepository.commitQuery)
        _ = try connection.pipeline(queries)
    }

    /// Outcome counts, for metrics: decisions and digests together.
    var outcomeCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for decision in decisions { counts[decision.outcome, default: 0] += 1 }
        for digest in digests { counts["digest." + digest.outcome, default: 0] += 1 }
        for case let outcome? in progress.map(\.outcome) { counts[outcome, default: 0] += 1 }
        return counts
    }

    /// Queued rows per platform and kind, for metrics.
    var queuedCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for row in deliveries { counts[row.delivery.platform.rawValue, default: 0] += 1 }
        return counts
    }
}
