import Foundation
import HeraldHTTP
import Testing

@testable import HeraldService

@Suite("Categories: create, read, list, replace, patch")
struct CategoriesCRUDTests {
    @Test("Create answers 201 with Location and ETag; GET returns the same document and defaults")
    func createAndRead() throws {
        let service = try TestService.make()
        defer { service.close() }
        let created = service.createChat()
        #expect(created.status == .created, "\(created.bodyText)")
        #expect(created.headers["Location"] == "/v1/categories/chat.message")
        #expect(created.headers["ETag"] == "\"1\"")
        let read = service.send(.get, "/v1/categories/chat.message", key: .some(try service.key([.eventsWrite])))
        #expect(read.status == .ok)
        #expect(read.headers["ETag"] == "\"1\"")
        #expect(read.json == created.json)
        #expect(read.json["version"]?.intValue == 1)
        #expect(read.json["archived"] == .bool(false))
        #expect(read.json["quiet_hours"]?.stringValue == "defer")
        #expect(read.json["delivery_mode"]?.stringValue == "system")
        #expect(read.json.at("collapse", "key_template")?.stringValue == "msg:{thread_id}")
        #expect(read.json.at("templates", "pl", "body")?.stringValue?.contains("few") == true)
        #expect(service.send(.get, "/v1/categories/nope").status == .notFound)
        #expect(service.send(.get, "/v1/categories/NOT%20A%20SLUG").status == .notFound)
    }

    @Test("Writes need categories:write; reads need any key")
    func scopes() throws {
        let service = try TestService.make()
        defer { service.close() }
        let reader = try service.key([.eventsWrite])
        #expect(service.createChat(key: .some(reader)).status == .forbidden)
        let writer = try service.key([.categoriesWrite])
        #expect(service.createChat(key: .some(writer)).status == .created)
        #expect(service.send(.get, "/v1/categories", key: .some(reader)).status == .ok)
        #expect(service.send(.get, "/v1/categories", key: .none).status == .unauthorized)
    }

    @Test("A taken id is 409 and the first category is untouched")
    func duplicate() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.createChat()
        let again = service.send(
            .post, "/v1/categories", json: #"{"id":"chat.message","name":"Other","templates":{"en":{"body":"x"}}}"#)
        #expect(again.status == .conflict)
        #expect(again.headers["Content-Type"] == "application/problem+json")
        #expect(service.send(.get, "/v1/categories/chat.message").json["name"]?.stringValue == "Chat message")
    }

    @Test("The list is ordered by id, paged by an opaque cursor, and filters archived categories")
    func listPaging() throws {
        let service = try TestService.make()
        defer { service.close() }
        let ids = (0..<7).map { String(format: "cat-%02d", $0) }.shuffled()
        for id in ids { #expect(service.createChat(id: id).status == .created) }
        #expect(service.send(.delete, "/v1/categories/cat-03").status == .ok)
        var seen: [String] = []
        var cursor: String?
        repeat {
            let target = "/v1/categories?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
            let page = service.send(.get, target)
            #expect(page.status == .ok)
            let items = page.json["items"]?.arrayValue ?? []
            #expect(items.count <= 3)
            seen += items.compactMap { $0["id"]?.stringValue }
            cursor = page.json["next_cursor"]?.stringValue
        } while cursor != nil && seen.count < 20
        #expect(seen == ids.sorted())
        let active = service.send(.get, "/v1/categories?archived=false").json["items"]?.arrayValue ?? []
        #expect(active.count == 6)
        let archived = service.send(.get, "/v1/categories?archived=true").json["items"]?.arrayValue ?? []
        #expect(archived.compactMap { $0["id"]?.stringValue } == ["cat-03"])
        #expect(service.send(.get, "/v1/categories?limit=0").status == .badRequest)
        #expect(service.send(.get, "/v1/categories?limit=201").status == .badRequest)
        #expect(service.send(.get, "/v1/categories?limit=200").status == .ok)
        let maybe = service.send(.get, "/v1/categories?archived=maybe")
        #expect(maybe.status == .badRequest)
        #expect(maybe.json["pointer"] == .string("archived"))
        #expect(service.send(.get, "/v1/categories?cursor=bm9wZQ").status == .badRequest)
        #expect(service.send(.get, "/v1/categories?cursor=%00%01").status == .badRequest)
    }

    @Test("PUT replaces the whole document (omitted members take defaults); the id cannot change")
    func replace() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.createChat()
        let body = #"{"name":"Chat","quiet_hours":"silent","templates":{"en":{"body":"{preview}"}}}"#
        let replaced = service.send(.put, "/v1/categories/chat.message", json: body, headers: [("If-Match", "\"1\"")])
        #expect(replaced.status == .ok, "\(replaced.bodyText)")
        #expect(replaced.headers["ETag"] == "\"2\"")
        #expect(replaced.json["quiet_hours"]?.stringValue == "silent")
        #expect(replaced.json["collapse"] == nil)
        #expect(replaced.json["priority"]?.stringValue == "normal")
        let renamed = service.send(
            .put, "/v1/categories/chat.message", json: #"{"id":"other","name":"x","templates":{"en":{"body":"x"}}}"#,
            headers: [("If-Match", "\"2\"")])
        #expect(renamed.status == .unprocessableContent)
        #expect(renamed.bodyText.contains("\"/id\""))
        let missing = service.send(
            .put, "/v1/categories/nope", json: #"{"name":"x","templates":{"en":{"body":"x"}}}"#,
            headers: [("If-Match", "\"1\"")])
        #expect(missing.status == .notFound)
    }

    @Test("PATCH is a JSON merge patch: members merge, null removes, the result is validated")
    func mergePatch() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.createChat()
        let patch = #"{"name":"Messages","collapse":null,"templates":{"pt":null,"fr":{"body":"{preview}"}}}"#
        let patched = service.send(
            .patch, "/v1/categories/chat.message", json: patch,
            headers: [("If-Match", "\"1\""), ("Content-Type", "application/merge-patch+json")])
        #expect(patched.status == .ok, "\(patched.bodyText)")
        #expect(patched.json["name"]?.stringValue == "Messages")
        #expect(patched.json["collapse"] == nil)
        #expect(patched.json.at("templates", "pt") == nil)
        #expect(patched.json.at("templates", "fr", "body")?.stringValue == "{preview}")
        #expect(patched.json.at("templates", "en", "title")?.stringValue == "{actor}")
        #expect(patched.json["priority"]?.stringValue == "high")
        let bad = service.send(
            .patch, "/v1/categories/chat.message", json: #"{"ttl_seconds":0,"priority":"urgent"}"#,
            headers: [("If-Match", "\"2\"")])
        #expect(bad.status == .unprocessableContent)
        #expect(bad.bodyText.contains("\"/ttl_seconds\"") && bad.bodyText.contains("\"/priority\""))
        #expect(service.send(.get, "/v1/categories/chat.message").headers["ETag"] == "\"2\"")
        let notObject = service.send(
            .patch, "/v1/categories/chat.message", json: "[1]", headers: [("If-Match", "\"2\"")])
        #expect(notObject.status == .unprocessableContent)
    }

    @Test("A PATCH of the kind alone gives the members the category never chose the new kind's defaults")
    func kindChange() throws {
        let service = try TestService.make()
        defer { service.close() }
        let created = service.send(
            .post, "/v1/categories",
            json: #"{"id":"sports.score","name":"Score","kind":"live_activity","templates":{"en":{"title":"Score"}}}"#)
        #expect(created.status == .created, "\(created.bodyText)")
        #expect(created.json["quiet_hours"]?.stringValue == "bypass")
        #expect(created.json["counts_toward_badge"] == .bool(false))
        let toNotification = service.send(
            .patch, "/v1/categories/sports.score", json: #"{"kind":"notification"}"#, headers: [("If-Match", "*")])
        #expect(toNotification.status == .ok, "\(toNotification.bodyText)")
        #expect(toNotification.json["quiet_hours"]?.stringValue == "defer")
        #expect(toNotification.json["counts_toward_badge"] == .bool(true))
        // And back, which a notification's default badge count would otherwise refuse; a chosen value stays.
        let back = service.send(
            .patch, "/v1/categories/sports.score", json: #"{"kind":"live_activity","quiet_hours":"drop"}"#,
            headers: [("If-Match", "*")])
        #expect(back.status == .ok, "\(back.bodyText)")
        #expect(back.json["quiet_hours"]?.stringValue == "drop")
        #expect(back.json["counts_toward_badge"] == .bool(false))
        let again = service.send(
            .patch, "/v1/categories/sports.score", json: #"{"kind":"notification"}"#, headers: [("If-Match", "*")])
        #expect(again.json["quiet_hours"]?.stringValue == "drop")
    }

    @Test("An edit that changes nothing writes no new version")
    func noOpEdit() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.createChat()
        let same = service.send(
            .patch, "/v1/categories/chat.message", json: #"{"name":"Chat message"}"#,
            headers: [("If-Match", "\"1\"")])
        #expect(same.status == .ok)
        #expect(same.headers["ETag"] == "\"1\"")
    }
}
