import Foundation
import HeraldHTTP
import Testing

@testable import HeraldService

@Suite("User preferences")
struct UsersPreferencesTests {
    static func service() throws -> TestService {
        let service = try TestService.make()
        try service.category("chat.message", document: #"{"default_preference":"on"}"#)
        try service.category("news.weekly", document: #"{"default_preference":"digest"}"#)
        try service.category("promo", document: #"{"default_preference":"off"}"#)
        try service.category("security.otp", document: #"{"default_preference":"on","required":true}"#)
        try service.category("old.feature", archived: true)
        #expect(service.send(.put, "/v1/users/u1", json: "{}").status == .created)
        return service
    }

    static func effective(_ service: TestService) -> [String: [String]] {
        let items = service.send(.get, "/v1/users/u1/preferences").json[array: "items"]
        return Dictionary(
            uniqueKeysWithValues: items.map {
                ($0[string: "category"] ?? "", [$0[string: "setting"] ?? "", $0[string: "source"] ?? ""])
            })
    }

    @Test("Every non-archived category has an effective preference with its source")
    func effectivePreferences() throws {
        let service = try Self.service()
        defer { service.close() }
        #expect(
            Self.effective(service) == [
                "chat.message": ["on", "category default"], "news.weekly": ["digest", "category default"],
                "promo": ["off", "category default"], "security.otp": ["on", "required"],
            ])
        let put = service.send(.put, "/v1/users/u1/preferences/chat.message", json: #"{"setting":"off"}"#)
        #expect(put.status == .ok)
        #expect(
            put.json
                == .object([
                    "category": .string("chat.message"), "setting": .string("off"), "source": .string("user"),
                    "user_setting": .string("off"),
                ]))
        let required = service.send(.put, "/v1/users/u1/preferences/security.otp", json: #"{"setting":"off"}"#)
        #expect(required.json["setting"] == .string("on"))
        #expect(required.json["source"] == .string("required"))
        #expect(service.send(.put, "/v1/users/u1/preferences/promo", json: #"{"setting":"digest"}"#).status == .ok)
        #expect(
            Self.effective(service) == [
                "chat.message": ["off", "user"], "news.weekly": ["digest", "category default"],
                "promo": ["digest", "user"], "security.otp": ["on", "required"],
            ])
        #expect(service.send(.delete, "/v1/users/u1/preferences/chat.message").status == .noContent)
        #expect(Self.effective(service)["chat.message"] == ["on", "category default"])
    }

    @Test("Unknown users and categories are 404, archived categories 409, bad settings 422")
    func errors() throws {
        let service = try Self.service()
        defer { service.close() }
        let off = #"{"setting":"off"}"#
        #expect(service.send(.put, "/v1/users/u2/preferences/chat.message", json: off).status == .notFound)
        #expect(service.send(.get, "/v1/users/u2/preferences").status == .notFound)
        #expect(service.send(.put, "/v1/users/u1/preferences/no.such", json: off).status == .notFound)
        #expect(service.send(.put, "/v1/users/u1/preferences/NOT%00VALID", json: off).status == .notFound)
        #expect(service.send(.delete, "/v1/users/u1/preferences/no.such").status == .notFound)
        #expect(service.send(.put, "/v1/users/u1/preferences/old.feature", json: off).status == .conflict)
        let bad = service.send(.put, "/v1/users/u1/preferences/chat.message", json: #"{"setting":"sometimes"}"#)
        #expect(bad.status == .unprocessableContent)
        #expect(bad.json["pointer"] == .string("/setting"))
    }
}
