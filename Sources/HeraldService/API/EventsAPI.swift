import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `/v1/events`: ingest (one event or a batch), simulation, and each event's decisions.
enum EventsAPI {
    typealias Tree = HeraldHTTP.JSONValue

    /// The most events one request may carry.
    static let maxBatch = 1_000

    static func register(on router: inout Router, environment: PipelineEnvironment) {
        router.post("/v1/events", auth: .scope(.eventsWrite)) { request, _ in
            try ingest(request, environment)
        }
        router.post("/v1/events:simulate", auth: .scope(.eventsWrite)) { request, _ in
            try simulate(request, environment)
        }
        router.get("/v1/events/{source}/{id}", auth: .scope(.eventsWrite)) { request, match in
            try status(source: try match.parameter("source"), id: try match.parameter("id"), request, environment)
        }
    }

    /// The body's events: a single event object, `{"events": [...]}`, or a bare array. Returns each event with
    /// the pointer prefix of its position, and whether the body was a batch.
    static func split(_ tree: Tree) throws -> (events: [(Tree, String)], isBatch: Bool) {
        var items: [Tree]
        var prefix: String
        switch tree {
        case .array(let array):
            (items, prefix) = (array, "")
        case .object(let members) where members["events"] != nil:
            guard case .array(let array) = members["events"]! else {
                throw HTTPError.invalidField("/events", "must be an array of events")
            }
            if let other = members.keys.sorted().first(where: { $0 != "events" }) {
                throw HTTPError.invalidField("/" + FieldError.token(other), "is not a member of a batch")
            }
            (items, prefix) = (array, "/events")
        default:
            return ([(tree, "")], false)
        }
        guard (1...maxBatch).contains(items.count) else {
            throw HTTPError.invalidField(prefix.isEmpty ? "" : prefix, "a batch holds 1 to \(maxBatch) events")
        }
        return (items.enumerated().map { ($0.element, "\(prefix)/\($0.offset)") }, true)
    }

    static func ingest(_ request: HTTPRequest, _ environment: PipelineEnvironment) throws -> HTTPResponse {
        let (events, isBatch) = try split(try EventBodyParser.body(of: request))
        var batch = IngestBatch(events.map { IncomingEvent.parse($0.0) })
        var outcomes: [EventIngestOutcome] = []
        if !batch.rows.isEmpty {
            let now = environment.context.clock()
            let stored = try environment.database { [batch] connection -> (IngestBatch, [EventIngestOutcome])? in
                guard try environment.backlog.admits(on: connection) else { return nil }
                let admitted = try batch.admittingByCategory(on: connection)
                return (admitted, try EventRepository.ingest(admitted.rows, acceptedAt: now, on: connection))
            }
            guard let stored else {
                environment.metrics.recordIngest(["backlog_full": events.count])
                throw HTTPError(
                    status: .serviceUnavailable, type: "backlog-full",
                    detail: "Too many events are waiting to be decided; retry later.", headers: ["Retry-After": "2"])
            }
            (batch, outcomes) = stored
        }
        let results = batch.results(outcomes).enumerated().map { IngestResult(index: $0.offset, $0.element) }
        let accepted = results.filter { $0.status == .accepted }.count
        environment.backlog.accepted(accepted)
        environment.metrics.recordIngest(Dictionary(grouping: results, by: \.status.rawValue).mapValues(\.count))
        return try isBatch ? batchResponse(results, events: events) : singleResponse(results[0])
    }

    static func singleResponse(_ result: IngestResult) throws -> HTTPResponse {
        switch result.status {
        case .accepted: return try HTTPResponse.json(result.acceptance, status: .accepted)
        case .duplicate: return try HTTPResponse.json(result.acceptance, status: .ok)
        case .conflict:
            throw HTTPError.conflict(
                "An event with this source and id was accepted earlier with a different body.",
                type: "event-conflict")
        case .unknownCategory: throw HTTPError.invalidField("/category", "no category has this id")
        case .archivedCategory: throw HTTPError.invalidField("/category", "the category is archived")
        case .invalid: throw HTTPError.invalidFields(result.result.errors)
        }
    }

    static func batchResponse(_ results: [IngestResult], events: [(Tree, String)]) throws -> HTTPResponse {
        let summary = BatchResult(results: results)
        if summary.accepted > 0 { return HTTPResponse.json(text: summary.body, status: .accepted) }
        if summary.duplicates > 0 { return HTTPResponse.json(text: summary.body, status: .ok) }
        var errors: [FieldError] = []
        for (result, (_, prefix)) in zip(results, events) {
            errors += result.result.problems.map { $0.under(prefix) }
        }
        var problem = HTTPError.invalidFields(errors)
        problem.detail = "No event of the batch was accepted."
        throw problem
    }

    static func status(
        source: String, id: String, _ request: HTTPRequest, _ environment: PipelineEnvironment
    ) throws -> HTTPResponse {
        let after = request.query("after") ?? ""
        guard [source, id].allSatisfy(StorableText.isStorable) else {
            throw HTTPError.notFound("No event has this source and id.")
        }
        guard StorableText.isStorable(after) else { throw HTTPError.invalidField("/after", "must not contain NUL") }
        let limit =
            try request.query("limit").map { text in
                guard let value = Int(text), (1...1_000).contains(value) else {
                    throw HTTPError.invalidField("/limit", "must be an integer from 1 to 1000")
                }
                return value
            } ?? 1_000
        let found = try environment.database { connection -> (EventStatusRecord, [DecisionRecord])? in
            guard let event = try EventRepository.status(source: source, id: id, on: connection) else { return nil }
            return (
                event, try DecisionRepository.decisions(eventSeq: event.seq, after: after, limit: limit, on: connection)
            )
        }
        guard let (event, decisions) = found else { throw HTTPError.notFound("No event has this source and id.") }
        return try HTTPResponse.json(
            EventStatusView(
                event, decisions: decisions, nextAfter: decisions.count == limit ? decisions.last?.userId : nil))
    }
}
