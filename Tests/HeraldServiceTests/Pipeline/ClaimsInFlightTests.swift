import Foundation
import HeraldPostgres
import Testing

@testable import HeraldService

/// Where a worker's claim starts: after the batches its process has in flight, unless something was left below.
@Suite("Claims in flight")
struct ClaimsInFlightTests {
    /// Three connections' identities, kept alive so that they stay distinct.
    let connections = [NSObject(), NSObject(), NSObject()]
    var a: ObjectIdentifier { ObjectIdentifier(connections[0]) }
    var b: ObjectIdentifier { ObjectIdentifier(connections[1]) }
    var c: ObjectIdentifier { ObjectIdentifier(connections[2]) }

    /// Opens a batch on `connection` that claims `seqs` of the `batch` it asked for; returns where its claim started.
    @discardableResult
    func claim(
        _ flight: ClaimsInFlight, _ connection: ObjectIdentifier, _ seqs: [Int64], batch: Int
    )
        -> ClaimsInFlight.Start
    {
        let start = flight.start(connection)
        flight.claimed(connection, from: start, seqs: seqs, batch: batch)
        return start
    }

    @Test func aClaimStartsAfterTheHighestSeqOfTheOtherOpenBatches() {
        let flight = ClaimsInFlight()
        #expect(claim(flight, a, [1, 2, 3], batch: 3).after == nil)
        #expect(claim(flight, b, [4, 5, 6], batch: 3).after == 3)
        #expect(flight.start(c).after == 6)
        // A batch starting again on its own connection does not count its previous claim.
        #expect(flight.start(b).after == 3)
        flight.committed(a, decided: [1, 2, 3])
        #expect(flight.start(c).after == nil)
    }

    @Test func aBatchThatLeftEventsPendingSendsClaimsBackToTheStartUntilOnePassesThem() {
        let flight = ClaimsInFlight()
        claim(flight, a, [1, 2, 3], batch: 3)
        claim(flight, b, [4, 5, 6], batch: 3)
        // Seq 2 waits for its next page of subscribers.
        flight.committed(a, decided: [1, 3])
        // A full walk that stopped below the seq left behind has not taken it.
        #expect(claim(flight, c, [0, 1], batch: 2).after == nil)
        flight.committed(c, decided: [0, 1])
        #expect(claim(flight, c, [2, 7], batch: 2).after == nil)
        flight.committed(c, decided: [2, 7])
        #expect(flight.start(a).after == 6)
    }

    @Test func aWalkThatFoundLessThanABatchTookEverythingLeftBelow() {
        let flight = ClaimsInFlight()
        claim(flight, a, [10, 11], batch: 2)
        claim(flight, b, [12, 13], batch: 2)
        flight.abandoned(a)
        #expect(claim(flight, c, [], batch: 2).after == nil)
        #expect(flight.start(a).after == 13)
    }

    @Test func somethingLeftBehindDuringAWalkIsNotTakenByIt() {
        let flight = ClaimsInFlight()
        claim(flight, a, [1, 2], batch: 2)
        claim(flight, b, [3, 4], batch: 2)
        flight.abandoned(a)
        let walk = flight.start(c)
        #expect(walk.after == nil)
        // While the walk runs, b hands its claim back: the walk skipped those rows, still held.
        flight.abandoned(b)
        flight.claimed(c, from: walk, seqs: [1, 2, 5], batch: 3)
        #expect(flight.start(a).after == nil)
    }

    @Test func everySixteenthClaimWalksFromTheStart() {
        let flight = ClaimsInFlight()
        claim(flight, a, [1], batch: 1)
        var starts: [Int64?] = []
        for _ in 2...32 { starts.append(flight.start(b).after) }
        #expect(starts.enumerated().filter { $0.element == nil }.map { $0.offset + 2 } == [16, 32])
    }
}

/// The claim statement with a start: it takes what is above the start first, and looks below only when that is
/// less than a batch.
@Suite("Claims in flight: the claim statement", .serialized)
struct ClaimStatementTests {
    @Test func theClaimStartsAfterItsStartAndLooksBelowOnlyWhenShort() async throws {
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.collapsingChat(devices: [("phone", .apns)])
        let events = (1...6).map { PipelineHarness.event(id: "e\($0)", occurredAt: start) }
        _ = await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
        let seqs = try await harness.sql("SELECT seq FROM events ORDER BY seq").map { try $0.int64(0) }
        try #require(seqs.count == 6)
        let conninfo = harness.conninfo
        let claimed = try await harness.database { _ in
            let connection = try PostgresConnection(conninfo: conninfo)
            func claim(_ limit: Int, after: Int64?) throws -> [Int64] {
                let result = try connection.pipeline([
                    PipelineRepository.beginQuery, EventRepository.claimQuery(limit: limit, after: after),
                ])
                PipelineRepository.abandon(connection)
                return try EventRepository.claims(from: result[1]).map(\.seq)
            }
            return [
                try claim(2, after: nil), try claim(2, after: seqs[3]), try claim(4, after: seqs[3]),
                try claim(9, after: seqs[5]),
            ]
        }
        #expect(claimed[0] == [seqs[0], seqs[1]])
        // Above the start, though older events wait below it.
        #expect(claimed[1] == [seqs[4], seqs[5]])
        // Short above, so the rest comes from below; in seq order.
        #expect(claimed[2] == [seqs[0], seqs[1], seqs[4], seqs[5]])
        #expect(claimed[3] == seqs)
    }

    @Test func aStoreClaimsAfterTheBatchesOpenOnItsSiblingsAndEveryEventIsDecidedOnce() async throws {
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        let harness = try await PipelineHarness.make(start: start, batchSize: 2)
        defer { harness.close() }
        try await harness.collapsingChat(devices: [("phone", .apns)])
        let events = (1...6).map { PipelineHarness.event(id: "e\($0)", occurredAt: start) }
        _ = await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
        let seqs = try await harness.sql("SELECT seq FROM events ORDER BY seq").map { try $0.int64(0) }
        let conninfo = harness.conninfo
        let flight = harness.claimsInFlight
        let claimed = try await harness.database { _ in
            let first = PostgresDecisionStore(try PostgresConnection(conninfo: conninfo), claimsInFlight: flight)
            let second = PostgresDecisionStore(try PostgresConnection(conninfo: conninfo), claimsInFlight: flight)
            let held = try first.openBatch(events: 2, timers: 0, now: start).claims.map(\.seq)
            let next = try second.openBatch(events: 2, timers: 0, now: start).claims.map(\.seq)
            second.abandon()
            first.abandon()
            return [held, next]
        }
        #expect(claimed == [[seqs[0], seqs[1]], [seqs[2], seqs[3]]])
        // Both batches were handed back: the next claims walk from the start and nothing is lost.
        try await PipelineDecisionTests.twoWorkers(harness)
        #expect(try await harness.count("SELECT count(*) FROM events WHERE state = 'pending'") == 0)
        #expect(try await harness.count("SELECT count(*) FROM decisions") == 6)
    }
}
