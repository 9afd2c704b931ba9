import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// A batch of message bodies read as events: the inbox rows to store, and for each message what became of it.
/// A body is one event object, exactly as one event of `POST /v1/events`, and goes through the same ingest round.
struct InboundEventBatch: Sendable {
    /// What the consumer does with one message.
    enum Verdict: Sendable, Equatable {
        case accepted
        case duplicate
        /// Not an acceptable event: dead-lettered with this reason.
        case rejected(String)
    }

    /// Per message: refused before parsing (with the reason), or the index of its event in the round.
    private let messages: [Result<Int, Refusal>]
    private var round: IngestBatch

    private struct Refusal: Error {
        var reason: String
    }

    /// The distinct events to store, in message order.
    var rows: [EventIngestRow] { round.rows }

    init(bodies: [[UInt8]]) {
        var parsed: [IncomingEvent.Parsed] = []
        messages = bodies.map { body in
            guard let tree = try? JSONParser.parse(body) else {
                // As over HTTP: valid JSON with a `\u0000` escape is invalid, not malformed.
                return .failure(
                    Refusal(
                        reason: NULEscape.isPresent(in: body)
                            ? "invalid: strings may not contain the NUL character (\\u0000)"
                            : "malformed: the body is not a JSON document"))
            }
            guard case .object = tree else {
                return .failure(Refusal(reason: "invalid: a message carries one event object"))
            }
            parsed.append(IncomingEvent.parse(tree))
            return .success(parsed.count - 1)
        }
        round = IngestBatch(parsed)
    }

    /// The batch with the events refused whose categories do not take their members
    /// (`IngestBatch.admittingByCategory`).
    func admittingByCategory(on connection: PostgresConnection) throws -> InboundEventBatch {
        var admitted = self
        admitted.round = try round.admittingByCategory(on: connection)
        return admitted
    }

    /// One verdict per message, given the ingest outcome of each row.
    func verdicts(_ outcomes: [EventIngestOutcome]) -> [Verdict] {
        let results = round.results(outcomes)
        return messages.map { message in
            switch message {
            case .failure(let refusal): .rejected(refusal.reason)
            case .success(let index): Self.verdict(results[index])
            }
        }
    }

    static func verdict(_ result: IngestBatch.Result) -> Verdict {
        switch result.status {
        case .accepted: return .accepted
        case .duplicate: return .duplicate
        case .conflict: return .rejected("conflict: an event with this source and id has a different body")
        case .unknownCategory: return .rejected("invalid: /category: no category has this id")
        case .archivedCategory: return .rejected("invalid: /category: the category is archived")
        case .invalid:
            let details = result.errors.prefix(5).map { "\($0.pointer.isEmpty ? "/" : $0.pointer): \($0.message)" }
            return .rejected("invalid: " + details.joined(separator: "; "))
        }
    }
}
