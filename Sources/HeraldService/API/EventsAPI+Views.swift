import Foundation
import HeraldCore
import HeraldPostgres

extension EventsAPI {
    /// What happened to one event of a request, as the API shows it.
    struct IngestResult {
        var index: Int
        /// The result the ingest round gave the event.
        var result: IngestBatch.Result

        init(index: Int, _ result: IngestBatch.Result) {
            self.index = index
            self.result = result
        }

        var status: IngestBatch.Status { result.status }

        /// Writes the result's object: `index`, `source`, `id`, `status`, `accepted_at` when known, and `errors`
        /// for an invalid event, keys in byte order.
        func write(into writer: inout JSONWriter) {
            writer.openObject()
            if let acceptedAt = result.acceptedAt {
                writer.key("accepted_at")
                writer.string(ISO8601.format(acceptedAt))
            }
            if status == .invalid {
                writer.key("errors")
                writer.json(.array(result.errors.map(\.json)))
            }
            if let id = result.id {
                writer.key("id")
                writer.string(id)
            }
            writer.key("index")
            writer.int(index)
            if let source = result.source {
                writer.key("source")
                writer.string(source)
            }
            writer.key("status")
            writer.string(status.rawValue)
            writer.closeObject()
        }

        /// The body of a single event's 202 or 200.
        var acceptance: Acceptance {
            Acceptance(
                source: result.source ?? "", id: result.id ?? "", status: status.rawValue,
                acceptedAt: result.acceptedAt)
        }
    }

    /// The acceptance of one event.
    struct Acceptance: Encodable {
        var source: String
        var id: String
        var status: String
        /// When the event was stored; every accepted or duplicate event has it, and a body never shows another time.
        var acceptedAt: Date?
    }

    /// The answer to a batch: counts and one result per event, in order. Written straight to JSON text: a busy
    /// ingest answers hundreds of these a second, and a tree of them cost about a sixth of the route's work.
    struct BatchResult {
        var accepted: Int
        var duplicates: Int
        var rejected: Int
        var results: [IngestResult]

        init(results: [IngestResult]) {
            self.results = results
            accepted = results.filter { $0.status == .accepted }.count
            duplicates = results.filter { $0.status == .duplicate }.count
            rejected = results.count - accepted - duplicates
        }

        /// `{"accepted":…,"duplicates":…,"rejected":…,"results":[…]}`, compact, keys in byte order.
        var body: [UInt8] {
            var writer = JSONWriter(capacity: 64 + results.count * 120)
            writer.openObject()
            writer.key("accepted")
            writer.int(accepted)
            writer.key("duplicates")
            writer.int(duplicates)
            writer.key("rejected")
            writer.int(rejected)
            writer.key("results")
            writer.openArray()
            for result in results {
                writer.nextElement()
                result.write(into: &writer)
            }
            writer.closeArray()
            writer.closeObject()
            return writer.bytes
        }
    }

    /// One recipient's decision as the API shows it.
    struct RecipientDecisionView: Encodable {
        var userId: String
        /// The coarse outcome: `delivered`, `deferred`, `suppressed`, …
        var outcome: String
        /// The exact reason code, e.g. `suppressed.preference`.
        var reason: String
        var detail: String?
        var deliverAt: Date?
        var notificationId: String?
        var collapseId: String?
        var badge: Int?
        var deliveryIds: [String]

        init(_ record: DecisionRecord) {
            userId = record.userId
            reason = record.outcome
            outcome = Self.coarse(record.outcome)
            detail = record.detail
            deliverAt = record.deliverAt
            notificationId = record.notificationId
            collapseId = record.collapseId
            badge = record.badge
            deliveryIds = record.deliveryIds
        }

        /// The coarse outcome of a reason code: its part before the dot (`suppressed` of `suppressed.preference`).
        static func coarse(_ reason: String) -> String {
            String(reason.split(separator: ".").first ?? Substring(reason))
        }
    }

    /// An event's status and decisions.
    struct EventStatusView: Encodable {
        var source: String
        var id: String
        var category: String
        var status: String
        var acceptedAt: Date
        var decidedAt: Date?
        var recipientsDecided: Int
        /// Present when the event itself has an outcome: `rejected.undecodable`.
        var outcome: String?
        var recipients: [RecipientDecisionView]
        var nextAfter: String?

        init(_ event: EventStatusRecord, decisions: [DecisionRecord], nextAfter: String?) {
            source = event.source
            id = event.id
            category = event.categoryId
            status = event.state
            acceptedAt = event.acceptedAt
            decidedAt = event.decidedAt
            recipientsDecided = event.recipientsDecided
            outcome = event.outcome
            recipients = decisions.map(RecipientDecisionView.init)
            self.nextAfter = nextAfter
        }
    }
}
