import Foundation
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

@Suite("Topics")
struct TopicsAPITests {
    @Test("Subscribers page by keyset cursor, in user id order, without gaps or repeats")
    func paging() throws {
        let service = try TestService.make()
        defer { service.close() }
        let ids = (0..<250).map { "user-\(String(format: "%03d", $0))" }
        try service.sql(
            "INSERT INTO users (id, created_at, updated_at) SELECT 'user-' || lpad(n::text, 3, '0'), $1::timestamptz, $1::timestamptz "
                + "FROM generate_series(0, 249) n", [service.now])
        for id in ids.shuffled() {
            #expect(service.send(.put, "/v1/topics/conversation:42/subscribers/\(id)").status == .noContent)
        }
        #expect(service.send(.put, "/v1/topics/conversation:42/subscribers/user-007").status == .noContent)
        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let query = "limit=100" + (cursor.map { "&cursor=\($0)" } ?? "")
            let page = service.send(.get, "/v1/topics/conversation:42/subscribers?\(query)")
            #expect(page.status == .ok)
            seen += page.json[array: "items"].compactMap { $0[string: "user_id"] }
            cursor = page.json[string: "next_cursor"]
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 3)
        #expect(seen == ids)

        let streamed = try service.context.pool.withConnectionBlocking { connection in
            var collected: [String] = []
            try TopicRepository.forEachSubscriberPage(topic: "conversation:42", pageSize: 64, on: connection) {
                collected += $0
                return true
            }
            return collected
        }
        #expect(streamed == ids)
        #expect(service.send(.get, "/v1/topics/conversation:43/subscribers").json[array: "items"].isEmpty)
    }

    @Test("Unsubscribing, unknown users and bad paging parameters")
    func errors() throws {
        let service = try TestService.make()
        defer { service.close() }
        #expect(service.send(.put, "/v1/users/u1", json: "{}").status == .created)
        #expect(service.send(.put, "/v1/topics/t/subscribers/u1").status == .noContent)
        #expect(service.send(.put, "/v1/topics/t/subscribers/ghost").status == .notFound)
        #expect(service.send(.put, "/v1/topics/bad%20topic/subscribers/u1").status == .badRequest)
        #expect(service.send(.delete, "/v1/topics/t/subscribers/u1").status == .noContent)
        #expect(service.send(.delete, "/v1/topics/t/subscribers/u1").status == .noContent)
        #expect(service.send(.get, "/v1/topics/t/subscribers").json[array: "items"].isEmpty)
        for query in ["limit=0", "limit=1001", "limit=ten", "cursor=%%%", "cursor=bm90IHZhbGlk"] {
            let response = service.send(.get, "/v1/topics/t/subscribers?\(query)")
            #expect(response.status == .badRequest, "\(query)")
            // The problem names the parameter, as every query problem does.
            #expect(response.json["pointer"]?.stringValue == String(query.prefix(while: { $0 != "=" })), "\(query)")
        }
        #expect(service.send(.get, "/v1/topics/t/subscribers?limit=1000").status == .ok)
    }
}
