import Foundation
import HeraldCore
import HeraldPostgres
import Testing

@testable import HeraldService

/// One ingest round, as REST and NATS both run it: repeats within the round are stored once and share the fate
/// of the first when their bodies match.
@Suite("Ingest round")
struct IngestBatchTests {
    static func parsed(_ id: String, text: String = "hi", category: String = "chat.message") -> IncomingEvent.Parsed {
        let body = #"""
            {"id":"\#(id)","source":"chat","category":"\#(category)","occurred_at":"2026-12-01T09:00:00Z",
             "recipients":["u1"],"data":{"text":"\#(text)"}}
            """#
        return IncomingEvent.parse(try! JSONParser.parse(Array(body.utf8)))
    }

    let at = Date(timeIntervalSince1970: 1_796_130_000)

    @Test func aRepeatWithTheSameBodyIsADuplicateAndWithAnotherAConflict() {
        let round = IngestBatch([
            Self.parsed("a"), Self.parsed("a"), Self.parsed("a", text: "changed"), Self.parsed("b"),
        ])
        #expect(round.rows.map(\.id) == ["a", "b"])
        let results = round.results([.accepted(seq: 1, acceptedAt: at), .duplicate(seq: 0, acceptedAt: at)])
        #expect(results.map(\.status) == [.accepted, .duplicate, .conflict, .duplicate])
        #expect(results.map(\.acceptedAt) == [at, at, at, at])
        #expect(results[2].problems.map(\.pointer) == ["/id"])
    }

    @Test func aRepeatOfAnEventThatWasNotStoredSharesItsReason() {
        let round = IngestBatch([Self.parsed("a"), Self.parsed("a")])
        #expect(round.results([.unknownCategory]).map(\.status) == [.unknownCategory, .unknownCategory])
        #expect(round.results([.archivedCategory]).map(\.status) == [.archivedCategory, .archivedCategory])
    }

    @Test func invalidEventsKeepTheirErrorsAndStoreNothing() {
        let round = IngestBatch([Self.parsed("a", category: "UPPER")])
        #expect(round.rows.isEmpty)
        let results = round.results([])
        #expect(results.map(\.status) == [.invalid])
        #expect(results[0].problems.map(\.pointer) == ["/category"])
        #expect(round.count == 1)
    }
}
