import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldService

@Suite("Event ingest", .serialized)
struct EventsIngestTests {
    let start = Date(timeIntervalSince1970: 1_796_000_000)

    @Test func theSameEventTwiceIsAcceptedOnceAndADifferentBodyConflicts() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        let body = PipelineHarness.event(id: "e1", occurredAt: start)
        let first = await harness.send(.post, "/v1/events", json: body)
        #expect(first.status == .accepted)
        #expect(first.json["status"] == .string("accepted"))
        let acceptedAt = first.json["accepted_at"]

        harness.clock.advance(30)
        // Same content, other key order and spacing: still the same event.
        let reordered =
            #"{ "source":"chat", "data":{"text":"hi"}, "id":"e1", "category":"chat.message", "#
            + #""recipients":["u1"], "occurred_at":"\#(ISO8601.format(start))" }"#
        let again = await harness.send(.post, "/v1/events", json: reordered)
        #expect(again.status == .ok)
        #expect(again.json["status"] == .string("duplicate"))
        #expect(again.json["accepted_at"] == acceptedAt)

        let changed = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "e1", occurredAt: start, data: #"{"text":"other"}"#))
        #expect(changed.status == .conflict)
        #expect(changed.headers["Content-Type"] == "application/problem+json")
        // The same id from another source is another event.
        let otherSource = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "e1", source: "mail", occurredAt: start))
        #expect(otherSource.status == .accepted)
        #expect(try await harness.count("SELECT count(*) FROM events") == 2)
    }

    @Test func aBatchReportsEachEventByIndexAndKeepsTheValidOnes() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        let events = [
            PipelineHarness.event(id: "b1", occurredAt: start),
            #"{"id":"b2","source":"chat","category":"chat.message","recipients":["u1"]}"#,
            PipelineHarness.event(id: "b3", category: "no.such.category", occurredAt: start),
            PipelineHarness.event(id: "b4", occurredAt: start),
            PipelineHarness.event(id: "b1", occurredAt: start),
            PipelineHarness.event(id: "b4", occurredAt: start, data: #"{"text":"changed"}"#),
            #"{"id":"b7","source":"Chat!","category":"chat.message","recipients":[],"occurred_at":"yesterday","x":1}"#,
        ]
        let response = await harness.send(.post, "/v1/events", json: #"{"events":[\#(events.joined(separator: ","))]}"#)
        #expect(response.status == .accepted)
        #expect(response.json["accepted"] == .int(2))
        #expect(response.json["duplicates"] == .int(1))
        #expect(response.json["rejected"] == .int(4))
        guard case .array(let results)? = response.json["results"] else {
            Issue.record("no results")
            return
        }
        let statuses = results.map { $0["status"] }
        #expect(
            statuses
                == [
                    "accepted", "invalid", "unknown_category", "accepted", "duplicate", "conflict", "invalid",
                ].map { .string($0) })
        #expect(results[1]["errors"]?.pointers == ["/occurred_at"])
        if case .array(let errors)? = results[1]["errors"], case .string(let detail)? = errors.first?["detail"] {
            #expect(!detail.isEmpty)
        } else {
            Issue.record("an invalid event's error has no detail")
        }
        #expect(results[0]["source"] == .string("chat") && results[0]["id"] == .string("b1"))
        if case .string(let acceptedAt)? = results[0]["accepted_at"] {
            #expect(ISO8601.parse(acceptedAt) != nil)
        } else {
            Issue.record("an accepted event has no accepted_at")
        }
        #expect(results[1]["accepted_at"] == nil)
        #expect(
            Set(results[6]["errors"]?.pointers ?? [])
                == ["/source", "/occurred_at", "/recipients", "/x"])
        #expect(results.map { $0["index"] } == (0..<7).map { .int($0) })
        #expect(try await harness.count("SELECT count(*) FROM events") == 2)
    }

    @Test func aBatchWithNothingAcceptedIsRefusedWithPointersPerEvent() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        let response = await harness.send(
            .post, "/v1/events",
            json: "[\(PipelineHarness.event(id: "x1", category: "missing", occurredAt: start)),{\"id\":5}]")
        #expect(response.status == .unprocessableContent)
        let pointers = response.json["errors"]?.pointers ?? []
        #expect(pointers.contains("/0/category"))
        #expect(pointers.contains("/1/id"))
        #expect(await harness.send(.post, "/v1/events", json: "[]").status == .unprocessableContent)
        // PostgreSQL cannot store U+0000: refused at the edge, never a 500, and as every other route refuses it
        // (valid JSON, so 422, not the 400 of broken syntax).
        let nul = PipelineHarness.event(id: "n1", occurredAt: start, data: #"{"text":"a\u0000b"}"#)
        let refused = await harness.send(.post, "/v1/events", json: nul)
        #expect(refused.status == .unprocessableContent)
        #expect(refused.json["pointer"] == .string("/data/text"))
        #expect(await harness.send(.post, "/v1/events", json: #"{"text":"ab""#).status == .badRequest)
        let plan = await harness.send(.post, "/v1/campaigns:plan", json: #"{"category":"a\u0000"}"#)
        #expect(plan.status == .unprocessableContent)
        #expect(await harness.send(.get, "/v1/events/chat/a%00b").status == .notFound)
        #expect(await harness.send(.post, "/v1/users/u%001/read", json: #"{"thread_id":"t"}"#).status == .notFound)
        let tooMany = "[" + Array(repeating: "{}", count: 1_001).joined(separator: ",") + "]"
        #expect(await harness.send(.post, "/v1/events", json: tooMany).status == .unprocessableContent)
    }

    @Test(arguments: ["unknown", "archived"])
    func aSingleEventOfAMissingOrArchivedCategoryIs422(_ kind: String) async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        if kind == "archived" {
            var category = PipelineHarness.chatCategory(id: "old.category")
            try await harness.category(category)
            category.archived = true
            _ = try await harness.sql(
                "UPDATE categories SET archived_at = $2, document = document || '{\"archived\":true}' WHERE id = $1",
                ["old.category", harness.clock.now])
        }
        let response = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "c1", category: "old.category", occurredAt: start))
        #expect(response.status == .unprocessableContent)
        #expect(response.json["pointer"] == .string("/category"))
        #expect(try await harness.count("SELECT count(*) FROM events") == 0)
    }

    @Test func aFullBacklogAnswers503WithRetryAfterAndDecidingMakesRoomAgain() async throws {
        let harness = try await PipelineHarness.make(start: start, backlogLimit: 3)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        for index in 0..<3 {
            let response = await harness.send(
                .post, "/v1/events", json: PipelineHarness.event(id: "q\(index)", occurredAt: start))
            #expect(response.status == .accepted)
        }
        let refused = await harness.send(.post, "/v1/events", json: PipelineHarness.event(id: "q3", occurredAt: start))
        #expect(refused.status == .serviceUnavailable)
        #expect(refused.headers["Retry-After"] != nil)
        #expect(try await harness.count("SELECT count(*) FROM events") == 3)

        try await harness.decideAll()
        // The backlog count is refreshed at most every quarter second; poll until it lets the event in.
        let deadline = ContinuousClock.now + .seconds(30)
        var status = refused.status
        while status == .serviceUnavailable, ContinuousClock.now < deadline {
            status = await harness.send(.post, "/v1/events", json: PipelineHarness.event(id: "q3", occurredAt: start))
                .status
        }
        #expect(status == .accepted)
    }

    @Test func theStatusOfAnEventIsPendingUntilDecidedAnd404WhenUnknown() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        #expect(await harness.send(.get, "/v1/events/chat/nope").status == .notFound)
        _ = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "s1", users: ["ghost"], occurredAt: start))
        let pending = await harness.send(.get, "/v1/events/chat/s1")
        #expect(pending.status == .ok)
        #expect(pending.json["status"] == .string("pending"))
        try await harness.decideAll()
        let decided = await harness.send(.get, "/v1/events/chat/s1")
        #expect(decided.json["status"] == .string("decided"))
        guard case .array(let recipients)? = decided.json["recipients"] else {
            Issue.record("no recipients")
            return
        }
        #expect(recipients.count == 1)
        #expect(recipients.first?["reason"] == .string("suppressed.unknown_user"))
        #expect(recipients.first?["outcome"] == .string("suppressed"))
    }
}

extension HeraldHTTP.JSONValue {
    /// The pointers of a list of field errors.
    var pointers: [String] {
        guard case .array(let items) = self else { return [] }
        return items.compactMap {
            if case .string(let pointer)? = $0["pointer"] { return pointer }
            return nil
        }
    }
}
