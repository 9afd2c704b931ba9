import Foundation
import HeraldHTTP
import Testing

@testable import HeraldService

@Suite("Categories: validation and template errors")
struct CategoryValidationTests {
    /// The `errors` of a problem response, keyed by pointer.
    static func errors(_ response: HTTPResponse) -> [String: JSONValue] {
        var byPointer: [String: JSONValue] = [:]
        for error in response.json["errors"]?.arrayValue ?? [] {
            if let pointer = error["pointer"]?.stringValue { byPointer[pointer] = error }
        }
        return byPointer
    }

    @Test("Every bad member is reported at once, each with its pointer")
    func everyBadMember() throws {
        let service = try TestService.make()
        defer { service.close() }
        let body = """
            {"id":"Bad Id","name":"","default_preference":"sometimes","required":"yes","ttl_seconds":0,
             "collapse":{"key_template":"msg:{nope}","window_seconds":0},"rate_limit":{"count":0},
             "thread_key_template":"t:{thread_id","apns_category":"","interruption_level":"loud",
             "default_locale":"en","colour":"red","templates":{"en":{"body":"ok","subtitle":"x"}}}
            """
        let response = service.send(.post, "/v1/categories", json: body)
        #expect(response.status == .unprocessableContent)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let errors = Self.errors(response)
        for pointer in [
            "/id", "/name", "/default_preference", "/required", "/ttl_seconds", "/collapse/key_template",
            "/collapse/window_seconds", "/rate_limit/window_seconds", "/thread_key_template", "/apns_category",
            "/interruption_level", "/colour", "/templates/en/subtitle",
        ] {
            #expect(errors[pointer] != nil, "no error for \(pointer) in \(response.bodyText)")
        }
        #expect(errors["/collapse/key_template"]?["detail"]?.stringValue?.contains("nope") == true)
        #expect(errors["/thread_key_template"]?["offset"]?.intValue == 2)
    }

    @Test("The learned budget is a rate limit option: kept when in range, refused with its pointer when not")
    func halvingAfterDismissalsIsAccepted() throws {
        let service = try TestService.make()
        defer { service.close() }
        func body(_ id: String, halving: Int) -> String {
            #"{"id":"\#(id)","name":"N","rate_limit":{"count":10,"window_seconds":3600,"halve_after_dismissals":\#(halving)},"#
                + #""templates":{"en":{"body":"ok"}}}"#
        }
        let created = service.send(.post, "/v1/categories", json: body("learned", halving: 3))
        #expect(created.status == .created, "\(created.bodyText)")
        #expect(created.json["rate_limit"]?["halve_after_dismissals"]?.intValue == 3)
        let refused = service.send(.post, "/v1/categories", json: body("too.many", halving: 101))
        #expect(refused.status == .unprocessableContent)
        #expect(Self.errors(refused)["/rate_limit/halve_after_dismissals"] != nil, "\(refused.bodyText)")
    }

    @Test("Image and link templates and the relevance score are kept, and bad ones refused with their pointers")
    func mediaTemplatesAndRelevance() throws {
        let service = try TestService.make()
        defer { service.close() }
        let created = service.send(
            .post, "/v1/categories",
            json: #"{"id":"rich","name":"Rich","image_template":"https://cdn.example.com/{actor}.png","#
                + #""link_template":"chat://t/{thread_id}","relevance_score":0.75,"templates":{"en":{"body":"ok"}}}"#)
        #expect(created.status == .created, "\(created.bodyText)")
        #expect(created.json["link_template"]?.stringValue == "chat://t/{thread_id}")
        #expect(created.json["image_template"]?.stringValue == "https://cdn.example.com/{actor}.png")
        #expect(created.json["relevance_score"] == .double(0.75))
        let refused = service.send(
            .post, "/v1/categories",
            json:
                #"{"id":"bad.rich","name":"Rich","image_template":"http://x/{actor}","link_template":"javascript:{actor}","#
                + #""relevance_score":"high","templates":{"en":{"body":"ok"}}}"#)
        #expect(refused.status == .unprocessableContent)
        let errors = Self.errors(refused)
        for pointer in ["/image_template", "/link_template", "/relevance_score"] {
            #expect(errors[pointer] != nil, "no error for \(pointer) in \(refused.bodyText)")
        }
    }

    @Test(
        "Template errors name the locale, the field and the offset",
        arguments: [
            // Unclosed argument: the offset is where the brace opens or where the parse gave up.
            ("pl-PL", "body", "Masz {count, plural, one {# wiadomość} few {# wiadomości}}", "missing_other", 5),
            ("en", "title", "Hello {name", "unmatched_braces", 6),
            ("en", "body", "{n, plural, one {x} other {y} other {z}}", "duplicate_selector", nil),
            ("fr", "digest_body", "{n, plural, un {x} other {y}}", "unknown_plural_category", nil),
            ("en", "body", "{when, dat}", "unknown_argument_type", nil),
            ("en", "fallback_body", "{n, choice, 0#none|1#one}", "unsupported_argument_type", nil),
        ] as [(String, String, String, String, Int?)])
    func templateErrors(locale: String, field: String, template: String, code: String, offset: Int?) throws {
        let service = try TestService.make()
        defer { service.close() }
        let escaped = template.replacingOccurrences(of: "\"", with: "\\\"")
        let mode = field == "fallback_body" ? "combined" : "system"
        let extra = field == "fallback_body" ? #","body":"ok""# : ""
        let broken = #"{"\#(field)":"\#(escaped)"\#(extra)}"#
        let good = field == "fallback_body" ? #"{"body":"ok","fallback_body":"ok"}"# : #"{"body":"ok"}"#
        let templates = locale == "en" ? #"{"en":\#(broken)}"# : #"{"en":\#(good),"\#(locale)":\#(broken)}"#
        let body = #"{"id":"t","name":"T","delivery_mode":"\#(mode)","templates":\#(templates)}"#
        let response = service.send(.post, "/v1/categories", json: body)
        #expect(response.status == .unprocessableContent)
        let pointer = "/templates/\(locale)/\(field)"
        let error = Self.errors(response)[pointer]
        #expect(error != nil, "no error at \(pointer): \(response.bodyText)")
        #expect(error?["code"]?.stringValue == "invalid_template")
        #expect(error?["detail"]?.stringValue?.hasPrefix(code) == true, "\(response.bodyText)")
        #expect(error?["offset"]?.intValue != nil)
        if let offset { #expect(error?["offset"]?.intValue == offset, "\(response.bodyText)") }
    }

    @Test("Offsets count characters, not bytes")
    func offsetsInCharacters() throws {
        let service = try TestService.make()
        defer { service.close() }
        let body = CategorySamples.json([
            "id": "t", "name": "T", "default_locale": "pl",
            "templates": ["pl": ["body": "Zażółć {n, plural, one {x}}"]],
        ])
        let response = service.send(.post, "/v1/categories", json: body)
        let error = Self.errors(response)["/templates/pl/body"]
        #expect(error?["offset"]?.intValue == 7, "\(response.bodyText)")
    }

    @Test("Unknown and malformed locales are rejected; tags are stored in canonical form")
    func locales() throws {
        let service = try TestService.make()
        defer { service.close() }
        let unknown = service.send(
            .post, "/v1/categories",
            json: CategorySamples.json([
                "id": "t", "name": "T", "default_locale": "xx",
                "templates": ["xx": ["body": "a"], "zz-ZZ": ["body": "b"], "en_": ["body": "c"]],
            ]))
        #expect(unknown.status == .unprocessableContent)
        let errors = Self.errors(unknown)
        #expect(errors["/default_locale"] != nil)
        #expect(errors["/templates/xx"]?["code"]?.stringValue == "unknown_locale")
        #expect(errors["/templates/zz-ZZ"] != nil)
        #expect(errors["/templates/en_"] != nil, "\(unknown.bodyText)")
        let canonical = service.send(
            .post, "/v1/categories",
            json: #"{"id":"c","name":"C","default_locale":"PT_br","templates":{"pt-br":{"body":"a"}}}"#)
        #expect(canonical.status == .created, "\(canonical.bodyText)")
        #expect(canonical.json["default_locale"]?.stringValue == "pt-BR")
        #expect(canonical.json.at("templates", "pt-BR", "body")?.stringValue == "a")
        let twice = service.send(
            .post, "/v1/categories",
            json: #"{"id":"d","name":"D","templates":{"en":{"body":"a"},"pl":{"body":"a"},"PL":{"body":"b"}}}"#)
        #expect(Self.errors(twice).values.contains { $0["code"]?.stringValue == "duplicate_locale" })
    }

    @Test("Limits: locales per category, template length, key template length, NUL characters, collapse id size")
    func limits() throws {
        let service = try TestService.make()
        defer { service.close() }
        let locales = (0..<101).map { #""en-\#(String(format: "%03d", $0))":{"body":"x"}"# }.joined(separator: ",")
        let many = service.send(
            .post, "/v1/categories", json: #"{"id":"m","name":"M","templates":{"en":{"body":"x"},\#(locales)}}"#)
        #expect(Self.errors(many)["/templates"]?["code"]?.stringValue == "too_many")
        let long = String(repeating: "a", count: 4_001)
        let tooLong = service.send(
            .post, "/v1/categories", json: #"{"id":"l","name":"L","templates":{"en":{"body":"\#(long)"}}}"#)
        #expect(Self.errors(tooLong)["/templates/en/body"] != nil)
        let nul = service.send(
            .post, "/v1/categories", json: #"{"id":"n","name":"a\u0000b","templates":{"en":{"body":"x"}}}"#)
        #expect(Self.errors(nul)["/name"]?["code"]?.stringValue == "invalid_characters")
        let literal = String(repeating: "k", count: 64)
        let collapse = service.send(
            .post, "/v1/categories",
            json: CategorySamples.json([
                "id": "k", "name": "K", "collapse": ["key_template": literal + "{thread_id}", "window_seconds": 5],
                "templates": ["en": ["body": "x"]],
            ]))
        #expect(Self.errors(collapse)["/collapse/key_template"]?["code"]?.stringValue == "too_long")
        let modes = service.send(
            .post, "/v1/categories",
            json: #"{"id":"a","name":"A","delivery_mode":"app","templates":{"en":{"body":"x"}}}"#)
        #expect(Self.errors(modes)["/templates/en/fallback_body"] != nil)
        let missingDefault = service.send(
            .post, "/v1/categories",
            json: #"{"id":"d","name":"D","default_locale":"fr","templates":{"en":{"body":"x"}}}"#)
        #expect(Self.errors(missingDefault)["/templates"]?["code"]?.stringValue == "missing_default_locale")
    }

    @Test("Wrong JSON shapes are 4xx problems, never 5xx", arguments: ["", "[]", "7", "null", #"{"id":5}"#, "{"])
    func shapes(body: String) throws {
        let service = try TestService.make()
        defer { service.close() }
        let response = service.send(.post, "/v1/categories", json: body)
        #expect([.badRequest, .unprocessableContent].contains(response.status), "\(body): \(response.bodyText)")
    }
}
