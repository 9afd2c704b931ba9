import Foundation
import HeraldHTTP
import Testing

@testable import HeraldService

@Suite("Categories: preview")
struct CategoryPreviewTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    static func preview(_ service: TestService, _ body: String, id: String = "chat.message") -> HTTPResponse {
        service.send(.post, "/v1/categories/\(id)/preview", json: body, key: .some(try? service.key([.eventsWrite])))
    }

    @Test("Renders title and body in the requested locale with the APNs request that would be queued")
    func apns() throws {
        let service = try TestService.make(clock: { Self.now })
        defer { service.close() }
        service.createChat()
        let response = Self.preview(
            service,
            #"{"locale":"pl-PL","platform":"apns","actors":["Asha"],"thread_id":"t42","data":{"preview":"Cześć!"}}"#)
        #expect(response.status == .ok, "\(response.bodyText)")
        let json = response.json
        #expect(json["locale"]?.stringValue == "pl")
        #expect(json["locale_chain"] == .array([.string("pl-PL"), .string("pl"), .string("en")]))
        #expect(json["title"]?.stringValue == "Asha")
        #expect(json["body"]?.stringValue == "1 nowa wiadomość: Cześć!")
        #expect(json["missing_arguments"] == .array([]))
        #expect(json["outcome"]?.stringValue == "delivered")
        let payload = try #require(json["payload"])
        #expect(payload["platform"]?.stringValue == "apns")
        #expect(payload.at("headers", "apns-topic")?.stringValue == "com.example.app")
        #expect(payload.at("headers", "apns-push-type")?.stringValue == "alert")
        #expect(payload.at("headers", "apns-priority")?.stringValue == "10")
        #expect(payload.at("headers", "apns-collapse-id")?.stringValue == "msg:t42")
        #expect(payload.at("body_json", "aps", "alert", "title")?.stringValue == "Asha")
        #expect(payload.at("body_json", "aps", "alert", "body")?.stringValue == "1 nowa wiadomość: Cześć!")
        #expect(payload.at("body_json", "aps", "thread-id")?.stringValue == "t42")
        #expect(payload.at("body_json", "aps", "category")?.stringValue == "MESSAGE")
        #expect(payload.at("body_json", "aps", "badge")?.intValue == 1)
        // The exact bytes are given too, and they are what body_json was parsed from.
        let exact = try #require(payload["body"]?.stringValue)
        #expect(try JSONValue(parsing: Array(exact.utf8)) == payload["body_json"])
        #expect(payload["body_bytes"]?.intValue == exact.utf8.count)
    }

    @Test("FCM and Web Push payloads come from the same builders")
    func fcmAndWebPush() throws {
        let service = try TestService.make(clock: { Self.now })
        defer { service.close() }
        service.createChat()
        let fcm = Self.preview(
            service, #"{"locale":"en-GB","platform":"fcm","actors":["Asha"],"data":{"preview":"Hi"}}"#
        ).json
        #expect(fcm["locale"]?.stringValue == "en")
        #expect(fcm.at("payload", "headers", "Content-Type")?.stringValue == "application/json")
        let message = try #require(fcm.at("payload", "body_json", "message"))
        #expect(message["token"]?.stringValue == "preview-fcm-registration-token")
        #expect(message.at("android", "priority")?.stringValue == "high")
        #expect(message.at("android", "notification", "channel_id")?.stringValue == "messages")
        #expect(message.at("notification", "body")?.stringValue == "1 new message: Hi")
        if case .object(let data)? = message["data"] {
            #expect(data.values.allSatisfy { $0.stringValue != nil }, "FCM data must be strings only")
        } else {
            Issue.record("no data in \(message)")
        }

        let web = Self.preview(
            service, #"{"locale":"pt-BR","platform":"webpush","actors":["Asha"],"thread_id":"t1"}"#
        ).json
        #expect(web["locale"]?.stringValue == "pt")
        #expect(web["body"]?.stringValue == "1 nova mensagem")
        #expect(web.at("payload", "headers", "TTL")?.stringValue == "3600")
        #expect(web.at("payload", "headers", "Urgency")?.stringValue == "high")
        // "msg:t1" has a colon, outside the URL-safe alphabet a Topic allows, so it is hashed to 32 characters.
        #expect(web.at("payload", "headers", "Topic")?.stringValue?.count == 32)
        #expect(web.at("payload", "body_json", "title")?.stringValue == "Asha")

        let wns = Self.preview(service, #"{"platform":"wns"}"#).json
        #expect(wns.at("payload", "body")?.stringValue?.hasPrefix("<toast") == true)
        #expect(wns.at("payload", "body_json") == nil)
    }

    @Test("Fallback: requested locale, then its language, then the category default; unknown tags fall to default")
    func fallbackChain() throws {
        let service = try TestService.make(clock: { Self.now })
        defer { service.close() }
        service.createChat()
        let cases: [(String, String)] = [
            ("pl-PL", "pl"), ("pl", "pl"), ("pt-PT", "pt"), ("de-AT", "en"), ("ja", "en"), ("en-US", "en"),
            ("PL_pl", "pl"),
        ]
        for (requested, used) in cases {
            let json = Self.preview(service, #"{"locale":"\#(requested)","data":{"preview":"x"}}"#).json
            #expect(json["locale"]?.stringValue == used, "\(requested): \(json)")
        }
        let defaulted = Self.preview(service, "{}").json
        #expect(defaulted["locale"]?.stringValue == "en")
        #expect(Self.preview(service, #"{"locale":"not a locale"}"#).status == .unprocessableContent)
    }

    @Test("Missing arguments render visibly and are reported; no notification is ever empty")
    func missingArguments() throws {
        let service = try TestService.make(clock: { Self.now })
        defer { service.close() }
        service.createChat()
        let json = Self.preview(service, #"{"locale":"en"}"#).json
        #expect(json["missing_arguments"] == .array([.string("actor"), .string("preview")]))
        #expect(json["title"]?.stringValue == "{actor}")
        #expect(json["body"]?.stringValue == "1 new message: {preview}")
        let fields = json["fields"]?.arrayValue ?? []
        #expect(fields.compactMap { $0["field"]?.stringValue } == ["title", "body"])
        #expect(fields.last?["missing_arguments"] == .array([.string("preview")]))
    }

    @Test("A count above one renders the digest with plural forms of the locale")
    func digest() throws {
        let service = try TestService.make(clock: { Self.now })
        defer { service.close() }
        service.createChat()
        let cases: [(String, Int, String)] = [
            ("pl", 2, "2 nowe wiadomości"), ("pl", 5, "5 nowych wiadomości"), ("pl", 22, "22 nowe wiadomości"),
            ("en", 3, "3 new messages"), ("en", 120, "120 new messages"),
        ]
        for (locale, count, body) in cases {
            let json = Self.preview(
                service,
                #"{"locale":"\#(locale)","count":\#(count),"actors":["Asha","Ben","Chen"],"thread_id":"t9"}"#
            ).json
            #expect(json["purpose"]?.stringValue == "digest")
            #expect(json["body"]?.stringValue == body, "\(locale) \(count): \(json)")
            #expect(json.at("payload", "body_json", "aps", "badge")?.intValue == count)
            #expect(json.at("payload", "headers", "apns-collapse-id")?.stringValue == "msg:t9")
        }
        let english = Self.preview(
            service, #"{"locale":"en","count":4,"actors":["Asha","Ben","Chen"],"thread_id":"t9"}"#
        ).json
        // The most recent actor leads: the fourth event was Asha's again.
        #expect(english["title"]?.stringValue == "Asha and 2 others", "\(english)")
    }

    @Test(
        "Bad preview requests list every bad member",
        arguments: [
            #"{"count":0,"platform":"pager","time_zone":"Mars/Base","actors":"Asha","shoe":1}"#
        ])
    func badRequests(body: String) throws {
        let service = try TestService.make()
        defer { service.close() }
        service.createChat()
        let response = Self.preview(service, body)
        #expect(response.status == .unprocessableContent)
        for pointer in ["/count", "/platform", "/time_zone", "/actors", "/shoe"] {
            #expect(response.bodyText.contains("\"\(pointer)\""), "\(pointer): \(response.bodyText)")
        }
        #expect(Self.preview(service, "{}", id: "nope").status == .notFound)
    }

    @Test("Times in templates are shown in the preview's zone")
    func zone() throws {
        let service = try TestService.make(clock: { Self.now })
        defer { service.close() }
        let body = CategorySamples.json([
            "id": "reminder", "name": "Reminder",
            "templates": ["en": ["body": "Sent at {occurred_at, time, ::HHmm}"]],
        ])
        #expect(service.send(.post, "/v1/categories", json: body).status == .created)
        let tokyo = Self.preview(service, #"{"time_zone":"Asia/Tokyo"}"#, id: "reminder").json
        #expect(tokyo["body"]?.stringValue == "Sent at 09:00")
        let kolkata = Self.preview(service, #"{"time_zone":"Asia/Kolkata"}"#, id: "reminder").json
        #expect(kolkata["body"]?.stringValue == "Sent at 05:30")
    }

    @Test("A digest spans the configured digest window, or the category's collapse window when it collapses")
    func digestWindow() throws {
        var config = ServiceConfig.defaults
        config.policy.digestWindowSeconds = 600
        let service = try TestService.make(clock: { Self.now }, config: config)
        defer { service.close() }
        let collapses: [(String, [String: Any]?)] = [
            ("news", nil), ("chat", ["key_template": "c:{thread_id}", "window_seconds": 120]),
        ]
        for (id, collapse) in collapses {
            var category: [String: Any] = [
                "id": id, "name": "Updates",
                "templates": ["en": ["body": "News", "digest_body": "{count} since {occurred_at, time, ::HHmm}"]],
            ]
            category["collapse"] = collapse
            #expect(service.send(.post, "/v1/categories", json: CategorySamples.json(category)).status == .created)
        }
        // The burst began one window before now (midnight), its three events spread over it, and `occurred_at` is
        // the latest one's: two thirds into ten minutes for a digest preference (not an hour), into two for the chat.
        let news = Self.preview(service, #"{"count":3}"#, id: "news").json
        #expect(news["purpose"]?.stringValue == "digest")
        #expect(news["body"]?.stringValue == "3 since 23:56", "\(news)")
        let chat = Self.preview(service, #"{"count":3,"thread_id":"t1"}"#, id: "chat").json
        #expect(chat["body"]?.stringValue == "3 since 23:59", "\(chat)")
    }

    @Test("A burst whose events expire before its window closes previews as expired, as the pipeline drops it")
    func burstOutlivingItsEvents() throws {
        let service = try TestService.make(clock: { Self.now })
        defer { service.close() }
        for (id, ttl) in [("short", 60), ("long", 600)] {
            let category: [String: Any] = [
                "id": id, "name": "Chat", "ttl_seconds": ttl,
                "collapse": ["key_template": "c:{thread_id}", "window_seconds": 300],
                "templates": ["en": ["body": "Hi", "digest_body": "{count} new"]],
            ]
            #expect(service.send(.post, "/v1/categories", json: CategorySamples.json(category)).status == .created)
        }
        // The burst began five minutes ago, its three events a hundred seconds apart: a minute's time to live ran out
        // for the last of them forty seconds before the burst closes; ten minutes' still runs.
        let short = Self.preview(service, #"{"count":3,"thread_id":"t1"}"#, id: "short").json
        #expect(short["outcome"]?.stringValue == "suppressed.expired", "\(short)")
        #expect(short["payload"] == .null)
        let long = Self.preview(service, #"{"count":3,"thread_id":"t1"}"#, id: "long").json
        #expect(long["outcome"]?.stringValue == "delivered", "\(long)")
        #expect(long["body"]?.stringValue == "3 new")
    }

    @Test("App-built notifications carry the fallback body; a device that cannot build gets the system text")
    func appMode() throws {
        let service = try TestService.make(clock: { Self.now })
        defer { service.close() }
        let body = CategorySamples.json([
            "id": "order.shipped", "name": "Order shipped", "delivery_mode": "app",
            "templates": [
                "en": ["title": "Shipped", "body": "Order {order} is on its way", "fallback_body": "Open the app"]
            ],
        ])
        #expect(service.send(.post, "/v1/categories", json: body).status == .created)
        let app = Self.preview(service, #"{"data":{"order":"A-1"}}"#, id: "order.shipped").json
        #expect(app["title"] == .null)
        #expect(app["body"]?.stringValue == "Open the app")
        #expect(app["fields"]?.arrayValue.first?["field"]?.stringValue == "fallback_body")
        let system = Self.preview(
            service, #"{"data":{"order":"A-1"},"app_builds_notifications":false}"#, id: "order.shipped"
        ).json
        #expect(system["title"]?.stringValue == "Shipped")
        #expect(system["body"]?.stringValue == "Order A-1 is on its way")
    }

    @Test("A rendered collapse key longer than APNs allows becomes a stable 64-byte collapse id")
    func longCollapseKey() throws {
        let service = try TestService.make(clock: { Self.now })
        defer { service.close() }
        service.createChat()
        let thread = String(repeating: "t", count: 128)
        let first = Self.preview(service, #"{"thread_id":"\#(thread)"}"#).json
        let second = Self.preview(service, #"{"thread_id":"\#(thread)","count":3}"#).json
        let id = try #require(first.at("payload", "headers", "apns-collapse-id")?.stringValue)
        #expect(id.utf8.count <= 64)
        #expect(second.at("payload", "headers", "apns-collapse-id")?.stringValue == id)
    }

    @Test("Unsaved templates preview as typed, with ICU errors at their offset, and nothing is stored")
    func draftTemplates() throws {
        let service = try TestService.make(clock: { Self.now })
        defer { service.close() }
        service.createChat()
        let plural = "{count, plural, one {# wiadomość} few {# wiadomości} many {# wiadomości} other {# wiadomości}}"
        let good = Self.preview(
            service,
            #"{"locale":"pl","count":5,"actors":["Asha"],"templates":{"pl":{"title":"Nowe","body":"\#(plural)","#
                + #""digest_title":"Nowe","digest_body":"\#(plural)"}}}"#)
        #expect(good.status == .ok, "\(good.bodyText)")
        #expect(good.json["body"]?.stringValue == "5 wiadomości")
        let broken = Self.preview(
            service, #"{"locale":"pl","templates":{"pl":{"title":"Nowe","body":"{count, plural, one {# x}"}}}"#)
        #expect(broken.status == .unprocessableContent)
        let error = try #require(broken.json[array: "errors"].first)
        #expect(error[string: "pointer"] == "/templates/pl/body")
        #expect(error["offset"]?.intValue != nil)
        #expect(Self.preview(service, #"{"templates":["pl"]}"#).status == .unprocessableContent)
        let stored = service.send(.get, "/v1/categories/chat.message")
        #expect(stored.json["version"]?.intValue == 1)
        #expect(stored.json.at("templates", "pl", "title")?.stringValue != "Nowe")
    }
}
