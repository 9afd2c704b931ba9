import Foundation
import HeraldCore
import Testing

@testable import HeraldService

/// The answer to a batch of events, written straight to JSON text.
@Suite struct EventsBatchAnswerTests {
    /// The answer as a JSON tree of it would serialize (keys sorted by their bytes): the text must be the same.
    static func treeForm(_ results: [EventsAPI.IngestResult]) -> String {
        let objects = results.map { result -> JSONValue in
            var members: [String: JSONValue] = ["index": .int(result.index), "status": .string(result.status.rawValue)]
            if let source = result.result.source { members["source"] = .string(source) }
            if let id = result.result.id { members["id"] = .string(id) }
            if let acceptedAt = result.result.acceptedAt {
                members["accepted_at"] = .string(ISO8601.format(acceptedAt))
            }
            if result.status == .invalid { members["errors"] = .array(result.result.errors.map(\.json)) }
            return .object(members)
        }
        let summary = EventsAPI.BatchResult(results: results)
        let answer = JSONValue.object([
            "accepted": .int(summary.accepted), "duplicates": .int(summary.duplicates),
            "rejected": .int(summary.rejected), "results": .array(objects),
        ])
        return String(decoding: answer.serialized(), as: UTF8.self)
    }

    @Test func theAnswerIsTheTreesText() throws {
        let at = Date(timeIntervalSince1970: 1_796_115_600.25)
        let results: [EventsAPI.IngestResult] = [
            .init(index: 0, .init(source: "chat", id: "m1", status: .accepted, acceptedAt: at)),
            .init(index: 1, .init(source: "chat \"q\" é", id: "m\u{2028}2", status: .duplicate, acceptedAt: at - 60)),
            .init(
                index: 2,
                .init(
                    source: nil, id: "m3", status: .invalid, acceptedAt: nil,
                    errors: [
                        FieldError(pointer: "/source", message: "is required"), FieldError(pointer: "/x", message: "y"),
                    ])),
            .init(index: 3, .init(source: "chat", id: "m1", status: .conflict, acceptedAt: nil)),
            .init(index: 4, .init(source: "s", id: "e", status: .unknownCategory, acceptedAt: nil)),
            .init(index: 5, .init(source: "s", id: "e2", status: .archivedCategory, acceptedAt: nil)),
            .init(index: 10, .init(source: nil, id: nil, status: .invalid, acceptedAt: nil, errors: [])),
        ]
        for count in [0, 1, 3, results.count] {
            let some = Array(results.prefix(count))
            let text = String(decoding: EventsAPI.BatchResult(results: some).body, as: UTF8.self)
            #expect(text == Self.treeForm(some))
        }
        let answer = try JSONParser.parse(EventsAPI.BatchResult(results: results).body)
        guard case .object(let members) = answer else { throw JSONParser.Malformed() }
        #expect(members["accepted"] == .int(1) && members["duplicates"] == .int(1) && members["rejected"] == .int(5))
    }
}
