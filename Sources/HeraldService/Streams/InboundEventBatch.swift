import Foundation
import HeraldCore
import HeraldPostgres

/// A batch of message bodies read as events: the inbox rows to store, and for each message what became of it.
/// A body is one event object, exactly as one event of `POST /v1/events`.
struct InboundEventBatch: Sendable {
    /// What the consumer does with one message.
    enum Verdict: Sendable, Equatable {
        case accepted
        case duplicate
        /// Not an acceptable event: dead-lettered with this reason.
        case rejected(String)
    }

    private enum Parsed: Sendable {
        case row(Int, hash: String)
        case repeatOf(Int, hash: String)
        case rejected(String)
    }

    /// The distinct events to store, in message order.
    private(set) var rows: [EventIngestRow] = []
    private var parsed: [Parsed] = []

    init(bodies: [[UInt8]]) {
        var firstByKey: [String: Int] = [:]
        for body in bodies {
            guard let tree = try? EventBodyParser.parse(body) else {
                parsed.append(.rejected("malformed: the body is not a JSON document"))
                continue
            }
            guard case .object = tree else {
                parsed.append(.rejected("invalid: a message carries one event object"))
                continue
            }
            switch IncomingEvent.parse(tree) {
            case .invalid(let errors):
                let details = errors.prefix(5).map { "\($0.pointer.isEmpty ? "/" : $0.pointer): \($0.message)" }
                parsed.append(.rejected("invalid: " + details.joined(separator: "; ")))
            case .event(let incoming):
                let key = incoming.source + "\u{0}" + incoming.event.id
                if let first = firstByKey[key] {
                    parsed.append(.repeatOf(first, hash: incoming.bodyHash))
                } else {
                    firstByKey[key] = rows.count
                    parsed.append(.row(rows.count, hash: incoming.bodyHash))
                    rows.append(incoming.ingestRow)
                }
            }
        }
    }

    /// One verdict per message, given the ingest outcome of each row.
    func verdicts(_ outcomes: [EventIngestOutcome]) -> [Verdict] {
        parsed.map { item in
            switch item {
            case .rejected(let reason):
                return .rejected(reason)
            case .row(let index, _):
                return Self.verdict(outcomes[index])
            case .repeatOf(let index, let hash):
                // A second message with the same source and id: a duplicate when the bodies match.
                guard rows[index].bodyHash == hash else {
                    return .rejected("conflict: an event with this source and id has a different body")
                }
                switch Self.verdict(outcomes[index]) {
                case .accepted, .duplicate: return .duplicate
                case .rejected(let reason): return .rejected(reason)
                }
            }
        }
    }

    static func verdict(_ outcome: EventIngestOutcome) -> Verdict {
        switch outcome {
        case .accepted: return .accepted
        case .duplicate: return .duplicate
        case .conflict: return .rejected("conflict: an event with this source and id has a different body")
        case .unknownCategory: return .rejected("invalid: /category: no category has this id")
        case .archivedCategory: return .rejected("invalid: /category: the category is archived")
        }
    }
}
