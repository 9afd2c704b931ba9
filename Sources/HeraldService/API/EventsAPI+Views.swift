import Foundation
import HeraldCore
import HeraldPostgres

extension EventsAPI {
    /// What happened to one event of a request.
    struct IngestResult: Encodable {
        enum Status: String, Encodable {
            case accepted, duplicate, conflict, invalid
            case unknownCategory = "unknown_category"
            case archivedCategory = "archived_category"

            /// Whether the event is in the inbox.
            var isStored: Bool { self == .accepted || self == .duplicate }
        }

        var index: Int
        var source: String?
        var id: String?
        var status: Status
        var acceptedAt: Date?
        var errors: [FieldError]?
        /// The body hash, to compare repeats within a batch; not sent.
        var hash: String?

        enum CodingKeys: String, CodingKey { case index, source, id, status, acceptedAt, errors }

        mutating func apply(_ outcome: EventIngestOutcome) {
            switch outcome {
            case .accepted(_, let at): (status, acceptedAt) = (.accepted, at)
            case .duplicate(_, let at): (status, acceptedAt) = (.duplicate, at)
            case .conflict(let at): (status, acceptedAt) = (.conflict, at)
            case .unknownCategory: status = .unknownCategory
            case .archivedCategory: status = .archivedCategory
            }
        }

        /// The body of a single event's 202 or 200.
        var acceptance: Acceptance {
            Acceptance(source: source ?? "", id: id ?? "", status: status.rawValue, acceptedAt: acceptedAt ?? Date())
        }

        /// Why the event was refused, as field errors relative to the event.
        var problems: [FieldError] {
            switch status {
            case .accepted, .duplicate: []
            case .conflict:
                [FieldError(pointer: "/id", message: "was accepted earlier with a different body")]
            case .unknownCategory: [FieldError(pointer: "/category", message: "no category has this id")]
            case .archivedCategory: [FieldError(pointer: "/category", message: "the category is archived")]
            case .invalid: errors ?? []
            }
        }
    }

    /// The acceptance of one event.
    struct Acceptance: Encodable {
        var source: String
        var id: String
        var status: String
        var acceptedAt: Date
    }

    /// The answer to a batch: counts and one result per event, in order.
    struct BatchResult: Encodable {
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
            outcome = String(record.outcome.split(separator: ".").first ?? Substring(record.outcome))
            detail = record.detail
            deliverAt = record.deliverAt
            notificationId = record.notificationId
            collapseId = record.collapseId
            badge = record.badge
            deliveryIds = record.deliveryIds
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
