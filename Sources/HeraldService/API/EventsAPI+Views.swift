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

        /// Appends the result's object: `index`, `source`, `id`, `status`, `accepted_at` when known, and `errors`
        /// for an invalid event, in the order of the keys' bytes (as a serialized JSON tree orders them).
        func write(into out: inout [UInt8]) {
            var first = true
            func key(_ name: StaticString) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSONValue.writeKey(name, into: &out)
            }
            out.append(UInt8(ascii: "{"))
            if let acceptedAt = result.acceptedAt {
                key("accepted_at")
                JSONValue.writeString(ISO8601.format(acceptedAt), into: &out)
            }
            if status == .invalid {
                key("errors")
                out.append(contentsOf: JSONValue.array(result.errors.map(\.json)).serialized())
            }
            if let id = result.id {
                key("id")
                JSONValue.writeString(id, into: &out)
            }
            key("index")
            out.append(contentsOf: String(index).utf8)
            if let source = result.source {
                key("source")
                JSONValue.writeString(source, into: &out)
            }
            key("status")
            JSONValue.writeString(status.rawValue, into: &out)
            out.append(UInt8(ascii: "}"))
        }

        /// The body of a single event's 202 or 200.
        var acceptance: Acceptance {
            Acceptance(
                source: result.source ?? "", id: result.id ?? "", status: status.rawValue,
                acceptedAt: result.acceptedAt ?? Date())
        }
    }

    /// The acceptance of one event.
    struct Acceptance: Encodable {
        var source: String
        var id: String
        var status: String
        var acceptedAt: Date
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
            var out: [UInt8] = []
            out.reserveCapacity(64 + results.count * 120)
            out.append(contentsOf: "{\"accepted\":\(accepted),\"duplicates\":\(duplicates),".utf8)
            out.append(contentsOf: "\"rejected\":\(rejected),\"results\":[".utf8)
            for (position, result) in results.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                result.write(into: &out)
            }
            out.append(contentsOf: "]}".utf8)
            return out
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
