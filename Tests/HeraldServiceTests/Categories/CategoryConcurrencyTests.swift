import Dispatch
import Foundation
import HeraldHTTP
import Synchronization
import Testing

@testable import HeraldService

@Suite("Categories: ETag and If-Match")
struct CategoryConcurrencyTests {
    static let body = #"{"name":"Renamed","templates":{"en":{"body":"x"}}}"#

    @Test("PUT and PATCH without If-Match are 428 problems; a stale ETag is 412 with the current ETag")
    func preconditions() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.createChat()
        for method in [HTTPMethod.put, .patch] {
            let blind = service.send(method, "/v1/categories/chat.message", json: Self.body)
            #expect(blind.status == .preconditionRequired)
            #expect(blind.headers["Content-Type"] == "application/problem+json")
        }
        let templates = service.send(.put, "/v1/categories/chat.message/templates/fr", json: #"{"body":"x"}"#)
        #expect(templates.status == .preconditionRequired)
        #expect(
            service.send(.put, "/v1/categories/chat.message", json: Self.body, headers: [("If-Match", "\"1\"")]).status
                == .ok)
        for stale in ["\"1\"", "W/\"2\"", "2", "\"x\"", ""] {
            let response = service.send(
                .patch, "/v1/categories/chat.message", json: #"{"name":"Again"}"#, headers: [("If-Match", stale)])
            #expect(response.status == .preconditionFailed, "If-Match: \(stale)")
            #expect(response.headers["ETag"] == "\"2\"")
            #expect(response.headers["Content-Type"] == "application/problem+json")
        }
        let listed = service.send(
            .patch, "/v1/categories/chat.message", json: #"{"name":"Again"}"#,
            headers: [("If-Match", "\"7\", \"2\"")])
        #expect(listed.status == .ok)
        let star = service.send(
            .patch, "/v1/categories/chat.message", json: #"{"name":"Star"}"#, headers: [("If-Match", "*")])
        #expect(star.status == .ok)
        #expect(star.headers["ETag"] == "\"4\"")
        let deleteStale = service.send(.delete, "/v1/categories/chat.message", headers: [("If-Match", "\"1\"")])
        #expect(deleteStale.status == .preconditionFailed)
    }

    @Test(
        "Two writers with the same ETag: exactly one wins, the other gets 412, and no update is lost", arguments: 0..<5)
    func race(round: Int) throws {
        let service = try TestService.make()
        defer { service.close() }
        service.createChat()
        let statuses = Mutex<[Int: HTTPStatus]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            let response = service.send(
                .patch, "/v1/categories/chat.message", json: #"{"description":"writer \#(writer)"}"#,
                headers: [("If-Match", "\"1\"")])
            statuses.withLock { $0[writer] = response.status }
        }
        let results = statuses.withLock { $0 }
        #expect(results.values.filter { $0 == .ok }.count == 1, "\(results)")
        #expect(results.values.filter { $0 == .preconditionFailed }.count == 1, "\(results)")
        let winner = results.first { $0.value == .ok }!.key
        let current = service.send(.get, "/v1/categories/chat.message")
        #expect(current.json["description"]?.stringValue == "writer \(winner)")
        #expect(current.json["version"]?.intValue == 2)
        let history = service.send(.get, "/v1/categories/chat.message/history").json["items"]?.arrayValue ?? []
        #expect(history.count == 2)
    }

    @Test(
        "Writes without If-Match (archive, restore, template delete) recompute on the fresh version instead of losing")
    func unconditionalWritesNeverLose() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.createChat()
        let locales = ["fr", "de", "es", "it", "nl", "sv"]
        // Add locales one by one, each conditional on the version it read, then remove them concurrently.
        for (index, locale) in locales.enumerated() {
            let put = service.send(
                .put, "/v1/categories/chat.message/templates/\(locale)", json: #"{"body":"{preview}"}"#,
                headers: [("If-Match", "\"\(index + 1)\"")])
            #expect(put.status == .created, "\(put.bodyText)")
        }
        let statuses = Mutex<[HTTPStatus]>([])
        DispatchQueue.concurrentPerform(iterations: locales.count) { index in
            let response = service.send(.delete, "/v1/categories/chat.message/templates/\(locales[index])")
            statuses.withLock { $0.append(response.status) }
        }
        #expect(statuses.withLock { $0 }.allSatisfy { $0 == .ok })
        let current = service.send(.get, "/v1/categories/chat.message")
        let remaining = current.json["templates"].map { value -> [String] in
            guard case .object(let members) = value else { return [] }
            return members.keys.sorted()
        }
        #expect(remaining == ["en", "pl", "pt"])
        #expect(current.json["version"]?.intValue == 1 + 2 * locales.count)
    }
}
