import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Synchronization
import Testing

@testable import HeraldService

@Suite("Categories: archive, restore, templates per locale, history")
struct CategoryLifecycleTests {
    @Test("DELETE archives: GET still answers with archived true, events are rejected with a reason; restore undoes it")
    func archiveAndRestore() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.createChat()
        let archived = service.send(.delete, "/v1/categories/chat.message")
        #expect(archived.status == .ok)
        #expect(archived.json["archived"] == .bool(true))
        #expect(archived.json["archived_at"]?.stringValue != nil)
        #expect(archived.headers["ETag"] == "\"2\"")
        let read = service.send(.get, "/v1/categories/chat.message")
        #expect(read.status == .ok)
        #expect(read.json["archived"] == .bool(true))
        // Archiving twice changes nothing.
        #expect(service.send(.delete, "/v1/categories/chat.message").headers["ETag"] == "\"2\"")

        // Ingest refuses new events naming it, pointing at their category.
        func post(_ id: String, category: String) -> HTTPResponse {
            service.send(
                .post, "/v1/events",
                json: #"{"id":"\#(id)","source":"chat","category":"\#(category)","#
                    + #""occurred_at":"\#(ISO8601.format(Date()))","recipients":["u1"],"data":{"text":"hi"}}"#)
        }
        let refused = post("e-archived", category: "chat.message")
        #expect(refused.status == .unprocessableContent, "\(refused.json)")
        let refusal = String(decoding: refused.body, as: UTF8.self)
        #expect(refusal.contains("/category") && refusal.contains("archived"), "\(refusal)")
        // The decider, given the category as loaded, rejects events already accepted for the same reason.
        let loaded = try service.context.pool.withConnectionBlocking { connection in
            try CategoryRepository.categories(ids: ["chat.message", "nope"], on: connection)
        }
        #expect(loaded.keys.sorted() == ["chat.message"])
        let decider = Decider(
            config: service.context.config.policy, zones: service.context.zones,
            renderer: CategoryRendererFixture.shared)
        let decision = decider.decide(
            event: Event(
                id: "e1", category: "chat.message", recipients: Event.Recipients(userIds: ["u1"]), occurredAt: Date()),
            category: loaded["chat.message"], recipients: ["u1"],
            states: ["u1": RecipientState(profile: UserProfile(id: "u1"))], now: Date())
        #expect(decision.decisions.first?.outcome == .rejectedArchivedCategory)

        let restored = service.send(.post, "/v1/categories/chat.message/restore")
        #expect(restored.status == .ok)
        #expect(restored.json["archived"] == .bool(false))
        #expect(restored.json["archived_at"] == .null)
        #expect(post("e-restored", category: "chat.message").status == .accepted)
        let unknown = post("e-unknown", category: "never.seen")
        #expect(unknown.status == .unprocessableContent)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("/category"))
        #expect(service.send(.post, "/v1/categories/never/restore").status == .notFound)
        #expect(service.send(.delete, "/v1/categories/never").status == .notFound)
    }

    @Test("PUT and DELETE of one locale's templates; the default locale's templates cannot be deleted")
    func templatesPerLocale() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.createChat()
        let added = service.send(
            .put, "/v1/categories/chat.message/templates/fr_fr",
            json: #"{"title":"{actor}","body":"{count, plural, one {# nouveau message} other {# nouveaux messages}}"}"#,
            headers: [("If-Match", "\"1\"")])
        #expect(added.status == .created, "\(added.bodyText)")
        #expect(added.headers["Location"] == "/v1/categories/chat.message/templates/fr-FR")
        #expect(added.json.at("templates", "fr-FR", "title")?.stringValue == "{actor}")
        let replaced = service.send(
            .put, "/v1/categories/chat.message/templates/fr-FR", json: #"{"body":"{preview}"}"#,
            headers: [("If-Match", "\"2\"")])
        #expect(replaced.status == .ok)
        #expect(replaced.json.at("templates", "fr-FR", "title") == nil)
        let broken = service.send(
            .put, "/v1/categories/chat.message/templates/fr-FR", json: #"{"body":"{n, plural, one {#}}"}"#,
            headers: [("If-Match", "\"3\"")])
        #expect(broken.status == .unprocessableContent)
        #expect(broken.bodyText.contains("\"/templates/fr-FR/body\""))
        let unknown = service.send(
            .put, "/v1/categories/chat.message/templates/xx-YY", json: #"{"body":"x"}"#,
            headers: [("If-Match", "\"3\"")])
        #expect(unknown.status == .unprocessableContent)
        #expect(unknown.bodyText.contains("unknown_locale"))
        #expect(service.send(.delete, "/v1/categories/chat.message/templates/fr-FR").status == .ok)
        #expect(service.send(.delete, "/v1/categories/chat.message/templates/fr-FR").status == .notFound)
        #expect(service.send(.delete, "/v1/categories/chat.message/templates/en").status == .conflict)
    }

    @Test("History lists every change with who, when, version, before and after; it pages by cursor")
    func history() throws {
        let service = try TestService.make()
        defer { service.close() }
        let alice = try service.key([.categoriesWrite], name: "Alice (growth)")
        let bob = try service.key([.categoriesWrite], name: "Bob")
        #expect(service.createChat(key: .some(alice)).status == .created)
        #expect(
            service.send(
                .patch, "/v1/categories/chat.message", json: #"{"priority":"normal"}"#, key: .some(bob),
                headers: [("If-Match", "\"1\"")]
            ).status == .ok)
        #expect(service.send(.delete, "/v1/categories/chat.message", key: .some(alice)).status == .ok)
        #expect(service.send(.post, "/v1/categories/chat.message/restore", key: .some(bob)).status == .ok)
        let reader = try service.key([.usersWrite])
        let all = service.send(.get, "/v1/categories/chat.message/history", key: .some(reader))
        #expect(all.status == .ok)
        let items = all.json["items"]?.arrayValue ?? []
        #expect(items.compactMap { $0["action"]?.stringValue } == ["create", "patch", "archive", "restore"])
        #expect(items.compactMap { $0["version"]?.intValue } == [1, 2, 3, 4])
        #expect(
            items.compactMap { $0.at("actor", "name")?.stringValue } == [
                "Alice (growth)", "Bob", "Alice (growth)", "Bob",
            ])
        #expect(items.allSatisfy { $0.at("actor", "key_id")?.stringValue?.hasPrefix("key_") == true })
        #expect(items.allSatisfy { $0["changed_at"]?.stringValue != nil })
        #expect(items[0]["before"] == .null)
        #expect(items[1].at("before", "priority")?.stringValue == "high")
        #expect(items[1].at("after", "priority")?.stringValue == "normal")
        #expect(items[2].at("before", "archived") == .bool(false))
        #expect(items[2].at("after", "archived") == .bool(true))

        var versions: [Int] = []
        var cursor: String?
        repeat {
            let page = service.send(
                .get, "/v1/categories/chat.message/history?limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""))
            versions += (page.json["items"]?.arrayValue ?? []).compactMap { $0["version"]?.intValue }
            cursor = page.json["next_cursor"]?.stringValue
        } while cursor != nil && versions.count < 10
        #expect(versions == [1, 2, 3, 4])
        #expect(service.send(.get, "/v1/categories/nope/history").status == .notFound)
        let foreign = PageCursor.category(after: "x")
        #expect(service.send(.get, "/v1/categories/chat.message/history?cursor=\(foreign)").status == .badRequest)
    }

    @Test("The repository refuses a write based on an old version and records nothing for it")
    func repositoryStaleWrite() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.createChat()
        let outcomes = try service.context.pool.withConnectionBlocking { connection in
            let current = try #require(try CategoryRepository.find(id: "chat.message", on: connection))
            var first = current.category
            first.description = "first"
            var second = current.category
            second.description = "second"
            return [
                try CategoryRepository.update(
                    id: "chat.message", expectedVersion: 1, to: first, action: .replace, actorKeyId: "admin",
                    now: Date(), on: connection),
                try CategoryRepository.update(
                    id: "chat.message", expectedVersion: 1, to: second, action: .replace, actorKeyId: "admin",
                    now: Date(), on: connection),
                try CategoryRepository.update(
                    id: "missing", expectedVersion: 1, to: second, action: .replace, actorKeyId: "admin",
                    now: Date(), on: connection),
            ]
        }
        guard case .updated(let record) = outcomes[0] else {
            Issue.record("first write was not stored: \(outcomes[0])")
            return
        }
        #expect(record.version == 2)
        #expect(outcomes[1] == .stale(currentVersion: 2))
        #expect(outcomes[2] == .notFound)
        let history = try service.context.pool.withConnectionBlocking { connection in
            try CategoryRepository.changes(id: "chat.message", afterVersion: 0, limit: 10, on: connection)
        }
        #expect(history.map(\.version) == [1, 2])
        #expect(history.last?.actorName == "test admin")
        #expect(history.last?.after.contains("\"first\"") == true)
    }

    /// A category's times and its history's are the service's clock, not the database's.
    @Test func changesAreStampedByTheServicesClock() throws {
        let instant = Mutex(Date(timeIntervalSince1970: 1_930_367_167))  // 2031-03-04T05:06:07Z
        let service = try TestService.make(clock: { instant.withLock { $0 } })
        defer { service.close() }
        let created = service.createChat()
        #expect(created.json["created_at"]?.stringValue?.hasPrefix("2031-03-04T05:06:07") == true)
        instant.withLock { $0 += 3_600 }
        let archived = service.send(.delete, "/v1/categories/chat.message")
        #expect(archived.json["created_at"]?.stringValue?.hasPrefix("2031-03-04T05:06:07") == true)
        #expect(archived.json["updated_at"]?.stringValue?.hasPrefix("2031-03-04T06:06:07") == true)
        #expect(archived.json["archived_at"]?.stringValue?.hasPrefix("2031-03-04T06:06:07") == true)
        let history = service.send(.get, "/v1/categories/chat.message/history").json["items"]?.arrayValue ?? []
        #expect(
            history.compactMap { $0["changed_at"]?.stringValue?.prefix(19) } == [
                "2031-03-04T05:06:07", "2031-03-04T06:06:07",
            ])
    }
}
