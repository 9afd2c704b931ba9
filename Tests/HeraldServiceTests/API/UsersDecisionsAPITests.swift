import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldService

/// `GET /v1/users/{id}/decisions`: "why didn't they get this?" for a user, newest first, paged.
@Suite("A user's decisions")
struct UsersDecisionsAPITests {
    /// Ana (Warsaw, quiet 22:00–07:00, one phone) turned promotions off; at 01:53 Warsaw time a promotion and a
    /// chat message reach her, and a message for Ben alone. Three events decided by the real pipeline.
    static func decidedHarness() async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make()
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.category(PipelineHarness.chatCategory(id: "promo"))
        try await harness.user("ana", timeZone: "Europe/Warsaw", quiet: (start: 22 * 60, end: 7 * 60))
        try await harness.user("ben")
        try await harness.device("ana-phone", user: "ana")
        #expect(await harness.send(.put, "/v1/users/ana/preferences/promo", json: #"{"setting":"off"}"#).status == .ok)
        let now = harness.clock.now
        for body in [
            PipelineHarness.event(id: "promo-1", category: "promo", users: ["ana"], source: "shop", occurredAt: now),
            PipelineHarness.event(id: "m-1", users: ["ana", "ben"], occurredAt: now),
            PipelineHarness.event(id: "m-2", users: ["ben"], occurredAt: now),
        ] {
            #expect(await harness.send(.post, "/v1/events", json: body).status == .accepted)
        }
        try await harness.decideAll()
        return harness
    }

    /// The `items` of a list answer.
    static func items(_ response: HTTPResponse) -> [JSONValue] {
        guard case .array(let items) = response.json["items"] else { return [] }
        return items
    }

    @Test("Newest first, each with its event, reason, detail and times; paged by an opaque cursor")
    func listAndPage() async throws {
        let harness = try await Self.decidedHarness()
        defer { harness.close() }
        let all = await harness.send(.get, "/v1/users/ana/decisions")
        #expect(all.status == .ok)
        #expect(all.headers["Cache-Control"] == "no-store")
        guard case .array(let items) = all.json["items"] else {
            Issue.record("no items: \(String(decoding: all.body, as: UTF8.self))")
            return
        }
        #expect(items.count == 2)
        #expect(all.json["next_cursor"] == .null)
        let deferred = items[0]
        #expect(deferred["event_source"] == .string("chat") && deferred["event_id"] == .string("m-1"))
        #expect(deferred["category"] == .string("chat.message"))
        #expect(deferred["outcome"] == .string("deferred") && deferred["reason"] == .string("deferred.quiet_hours"))
        // 07:00 in Warsaw on 30 November is 06:00 UTC.
        #expect(deferred["deliver_at"] == .string("2026-11-30T06:00:00Z"))
        #expect(deferred["deliveries"] == .int(1))
        #expect(deferred["notification_id"] != .null)
        #expect(deferred["decided_at"] == .string(ISO8601.format(harness.clock.now)))
        let suppressed = items[1]
        #expect(suppressed["event_source"] == .string("shop") && suppressed["event_id"] == .string("promo-1"))
        #expect(suppressed["reason"] == .string("suppressed.preference") && suppressed["detail"] == .string("user"))
        #expect(suppressed["outcome"] == .string("suppressed"))
        #expect(suppressed["deliver_at"] == .null && suppressed["notification_id"] == .null)
        #expect(suppressed["deliveries"] == .int(0))

        let first = await harness.send(.get, "/v1/users/ana/decisions?limit=1")
        #expect(Self.items(first)[safe: 0]?["event_id"] == .string("m-1"))
        guard case .string(let cursor) = first.json["next_cursor"] else {
            Issue.record("the first page of one has no next_cursor")
            return
        }
        let second = await harness.send(.get, "/v1/users/ana/decisions?limit=1&cursor=\(cursor)")
        #expect(Self.items(second)[safe: 0]?["event_id"] == .string("promo-1"))
        #expect(second.json["next_cursor"] == .null)

        let ben = await harness.send(.get, "/v1/users/ben/decisions")
        #expect(Self.items(ben)[safe: 0]?["event_id"] == .string("m-2"))
        #expect(Self.items(ben)[safe: 1]?["event_id"] == .string("m-1"))
        #expect(Self.items(ben)[safe: 1]?["reason"] == .string("no_devices"))
    }

    @Test(
        "A bad limit or cursor is a 400 problem naming the parameter",
        arguments: [
            ("limit=0", "limit"), ("limit=101", "limit"), ("limit=ten", "limit"), ("limit=", "limit"),
            ("cursor=not-a-cursor", "cursor"), ("cursor=YzE6Y2hhdA", "cursor"), ("cursor=ZDE6LTE", "cursor"),
        ])
    func badParameters(query: String, parameter: String) throws {
        let service = try TestService.make()
        defer { service.close() }
        #expect(service.send(.put, "/v1/users/ana", json: "{}").status == .created)
        let answer = service.send(.get, "/v1/users/ana/decisions?\(query)")
        #expect(answer.status == .badRequest)
        #expect(answer.headers["Content-Type"] == "application/problem+json")
        #expect(answer.json["pointer"] == .string(parameter))
        #expect(service.send(.get, "/v1/users/ana/decisions?limit=100").status == .ok)
    }

    @Test("users:write or admin reads it; other keys, client tokens and anonymous callers do not; unknown users 404")
    func access() throws {
        let service = try TestService.make()
        defer { service.close() }
        #expect(service.send(.put, "/v1/users/ana", json: "{}").status == .created)
        let support = try service.key([.usersWrite])
        let publisher = try service.key([.eventsWrite])
        let now = service.context.clock()
        let anaToken = service.context.clientTokens!.mint(
            userID: "ana", issuedAt: now, expiresAt: now.addingTimeInterval(600))
        #expect(service.send(.get, "/v1/users/ana/decisions", key: .some(support)).status == .ok)
        #expect(service.send(.get, "/v1/users/ana/decisions").status == .ok)
        #expect(service.send(.get, "/v1/users/ana/decisions", key: .some(publisher)).status == .forbidden)
        #expect(service.send(.get, "/v1/users/ana/decisions", key: .some(anaToken)).status == .forbidden)
        #expect(service.send(.get, "/v1/users/ana/decisions", key: .none).status == .unauthorized)
        // Authentication comes first: a bad parameter does not tell an anonymous caller anything.
        #expect(service.send(.get, "/v1/users/ana/decisions?limit=0", key: .none).status == .unauthorized)
        #expect(service.send(.get, "/v1/users/nobody/decisions", key: .some(support)).status == .notFound)
        #expect(service.send(.get, "/v1/users/not%20valid/decisions").status == .notFound)
        #expect(service.send(.delete, "/v1/users/ana").status == .noContent)
        #expect(service.send(.get, "/v1/users/ana/decisions").status == .notFound)
    }
}

extension Array {
    /// The element at `index`, or nil past the end.
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
