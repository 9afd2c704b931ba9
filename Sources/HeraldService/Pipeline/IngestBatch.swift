import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// One round of ingest, from `POST /v1/events` or from a NATS fetch alike: the parsed events, the distinct rows to
/// store, and, once they are stored, what became of each event. An event that repeats an earlier one of the same
/// round (same source and id) is never stored twice: with the same body it shares the earlier one's fate (a
/// duplicate once that is stored), with another body it is a conflict.
struct IngestBatch: Sendable {
    /// What became of one event.
    enum Status: String, Sendable, Encodable {
        case accepted, duplicate, conflict, invalid
        case unknownCategory = "unknown_category"
        case archivedCategory = "archived_category"

        /// Whether the event is in the inbox.
        var isStored: Bool { self == .accepted || self == .duplicate }
    }

    /// One event's result.
    struct Result: Sendable {
        var source: String?
        var id: String?
        var status: Status
        var acceptedAt: Date?
        /// Why an invalid event was refused.
        var errors: [FieldError] = []

        /// Why the event was refused, as field errors relative to the event; empty when it is stored.
        var problems: [FieldError] {
            switch status {
            case .accepted, .duplicate: []
            case .conflict:
                [FieldError(pointer: "/id", message: "was accepted earlier with a different body")]
            case .unknownCategory: [FieldError(pointer: "/category", message: "no category has this id")]
            case .archivedCategory: [FieldError(pointer: "/category", message: "the category is archived")]
            case .invalid: errors
            }
        }
    }

    private enum Item: Sendable {
        case invalid([FieldError])
        /// The event stored as `rows[row]`, or repeating it when `repeats`.
        case event(source: String, id: String, hash: String, row: Int, repeats: Bool)
    }

    /// The distinct events to store, in order of first appearance.
    private(set) var rows: [EventIngestRow] = []
    private var items: [Item] = []
    private let parsed: [IncomingEvent.Parsed]

    /// Sorts parsed events into rows to store and repeats of them.
    init(_ parsed: [IncomingEvent.Parsed]) {
        self.parsed = parsed
        var firstByKey: [String: Int] = [:]
        for event in parsed {
            switch event {
            case .invalid(let errors):
                items.append(.invalid(errors))
            case .event(let incoming):
                let key = incoming.source + "\u{0}" + incoming.event.id
                let first = firstByKey[key]
                if first == nil {
                    firstByKey[key] = rows.count
                    rows.append(incoming.ingestRow)
                }
                items.append(
                    .event(
                        source: incoming.source, id: incoming.event.id, hash: incoming.bodyHash,
                        row: first ?? rows.count - 1, repeats: first != nil))
            }
        }
    }

    /// The round with every event refused whose category does not take its members (`Event.admission(in:)`: a
    /// ciphertext, a Live Activity update), as of `connection`: the categories are read only when some event carries
    /// such a member. An unknown category is left for the ingest statement to report.
    func admittingByCategory(on connection: PostgresConnection) throws -> IngestBatch {
        let judged = Set(
            parsed.compactMap { item -> String? in
                guard case .event(let incoming) = item, incoming.event.needsCategoryAdmission else { return nil }
                return incoming.event.category
            })
        guard !judged.isEmpty else { return self }
        let categories = try CategoryRepository.categories(ids: judged.sorted(), on: connection)
        return IngestBatch(
            parsed.map { item in
                guard case .event(let incoming) = item, incoming.event.needsCategoryAdmission,
                    let category = categories[incoming.event.category]
                else { return item }
                let refusals = incoming.event.admission(in: category)
                return refusals.isEmpty ? item : .invalid(refusals)
            })
    }

    /// The number of events in the round.
    var count: Int { items.count }

    /// One result per event, in order, given the store's outcome for each row (`rows` order).
    func results(_ outcomes: [EventIngestOutcome]) -> [Result] {
        precondition(outcomes.count == rows.count, "one outcome per stored row")
        return items.map { item in
            switch item {
            case .invalid(let errors):
                return Result(status: .invalid, errors: errors)
            case .event(let source, let id, let hash, let row, let repeats):
                var result = Self.result(outcomes[row], source: source, id: id)
                if repeats {
                    if rows[row].bodyHash != hash {
                        result.status = .conflict
                    } else if result.status == .accepted {
                        result.status = .duplicate
                    }
                }
                return result
            }
        }
    }

    private static func result(_ outcome: EventIngestOutcome, source: String, id: String) -> Result {
        switch outcome {
        case .accepted(_, let at): Result(source: source, id: id, status: .accepted, acceptedAt: at)
        case .duplicate(_, let at): Result(source: source, id: id, status: .duplicate, acceptedAt: at)
        case .conflict(let at): Result(source: source, id: id, status: .conflict, acceptedAt: at)
        case .unknownCategory: Result(source: source, id: id, status: .unknownCategory)
        case .archivedCategory: Result(source: source, id: id, status: .archivedCategory)
        }
    }
}
