import Foundation
import HeraldCore
import HeraldHTTP
import Synchronization
import Testing

@testable import HeraldService

@Suite("API keys")
struct APIKeysAPITests {
    @Test("An admin creates a key; the secret works once stored as a hash, and revoking it locks it out")
    func createUseRevoke() throws {
        let service = try TestService.make()
        defer { service.close() }
        let created = service.send(.post, "/v1/api-keys", json: #"{"name":"orders","scopes":["admin"]}"#)
        #expect(created.status == .created)
        guard case .string(let secret)? = created.json["secret"], case .string(let id)? = created.json["id"] else {
            Issue.record("no secret or id in \(created.bodyText)")
            return
        }
        #expect(created.headers["Location"] == "/v1/api-keys/\(id)")
        #expect(service.send(.get, "/v1/api-keys", key: .some(secret)).status == .ok)
        let list = service.send(.get, "/v1/api-keys")
        #expect(!list.bodyText.contains(secret))
        #expect(service.send(.delete, "/v1/api-keys/\(id)").status == .noContent)
        #expect(service.send(.get, "/v1/api-keys", key: .some(secret)).status == .unauthorized)
        #expect(service.send(.delete, "/v1/api-keys/nope").status == .notFound)
        let selfRevocation = service.send(.delete, "/v1/api-keys/admin")
        #expect(selfRevocation.status == .conflict)
        #expect(service.send(.get, "/v1/api-keys").status == .ok)
    }

    @Test(
        "Bad requests name the field",
        arguments: [
            (#"{"name":"","scopes":["admin"]}"#, "/name"),
            (#"{"name":"x","scopes":[]}"#, "/scopes"),
            (#"{"name":"x","scopes":["root"]}"#, "/scopes/0"),
            (#"{"name":"x","scopes":["admin","admin"]}"#, "/scopes/1"),
            (#"{"name":"x"}"#, "/scopes"),
            (#"{"name":7,"scopes":["admin"]}"#, "/name"),
            (#"{"name":"x","scopes":["admin"],"extra":1}"#, "/extra"),
            // 200 characters of 400 code points: the stored name's limit counts code points.
            (#"{"name":"\#(String(repeating: "e\u{301}", count: 200))","scopes":["admin"]}"#, "/name"),
        ])
    func validation(body: String, pointer: String) throws {
        let service = try TestService.make()
        defer { service.close() }
        let response = service.send(.post, "/v1/api-keys", json: body)
        #expect(response.status == .unprocessableContent)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(response.bodyText.contains("\"\(pointer)\""))
    }

    @Test("Malformed JSON is a 400 problem")
    func malformed() throws {
        let service = try TestService.make()
        defer { service.close() }
        let response = service.send(.post, "/v1/api-keys", json: #"{"name":"#)
        #expect(response.status == .badRequest)
        #expect(response.json["request_id"] != nil)
    }

    /// The times a key shows are the service's clock, not the database's.
    @Test func aKeysCreationAndRevocationAreStampedByTheServicesClock() throws {
        let instant = Mutex(Date(timeIntervalSince1970: 1_930_367_167))  // 2031-03-04T05:06:07Z
        let service = try TestService.make(clock: { instant.withLock { $0 } })
        defer { service.close() }
        let created = service.send(.post, "/v1/api-keys", json: #"{"name":"orders","scopes":["admin"]}"#)
        #expect(created.json["created_at"]?.stringValue?.hasPrefix("2031-03-04T05:06:07") == true)
        let id = try #require(created.json["id"]?.stringValue)
        instant.withLock { $0 += 3_600 }
        #expect(service.send(.delete, "/v1/api-keys/\(id)").status == .noContent)
        let listed = service.send(.get, "/v1/api-keys").json["items"]?.arrayValue ?? []
        let key = try #require(listed.first { $0["id"]?.stringValue == id })
        #expect(key["created_at"]?.stringValue?.hasPrefix("2031-03-04T05:06:07") == true)
        #expect(key["revoked_at"]?.stringValue?.hasPrefix("2031-03-04T06:06:07") == true)
    }

    /// The list pages newest first by an opaque cursor; keys created at one instant page by id. A page never
    /// repeats or skips a key.
    @Test func theListPagesNewestFirstByCursor() throws {
        let instant = Mutex(Date(timeIntervalSince1970: 1_930_367_167))
        let service = try TestService.make(clock: { instant.withLock { $0 } })
        defer { service.close() }
        var created: [String] = []
        for n in 0..<5 {
            // Two keys share each instant but the last.
            if n % 2 == 0 { instant.withLock { $0 += 0.000_001 } }
            let response = service.send(.post, "/v1/api-keys", json: #"{"name":"k\#(n)","scopes":["events:write"]}"#)
            created.append(try #require(response.json["id"]?.stringValue))
        }
        var seen: [String] = []
        var cursor: String?
        repeat {
            let query = cursor.map { "&cursor=\($0)" } ?? ""
            let page = service.send(.get, "/v1/api-keys?limit=2" + query)
            #expect(page.status == .ok)
            let items = page.json["items"]?.arrayValue ?? []
            #expect(items.count <= 2)
            seen += items.compactMap { $0["id"]?.stringValue }
            cursor = page.json["next_cursor"]?.stringValue
        } while cursor != nil && seen.count < 20
        // Newest first, ties by id descending; the bootstrap admin key is the oldest.
        let descending = { (ids: [String]) in ids.sorted { $0 > $1 } }
        let expected =
            [created[4]] + descending([created[2], created[3]]) + descending([created[0], created[1]]) + ["admin"]
        #expect(seen == expected)
        for cursor in ["nope", Base64URL.encode(Array("k1:9000000000000000000:key_x".utf8))] {
            let bad = service.send(.get, "/v1/api-keys?cursor=" + cursor)
            #expect(bad.status == .badRequest)
            #expect(bad.bodyText.contains("\"cursor\""))
        }
        #expect(service.send(.get, "/v1/api-keys?limit=0").status == .badRequest)
        #expect(service.send(.get, "/v1/api-keys?limit=1001").status == .badRequest)
    }
}
