import Foundation
import HeraldHTTP

@testable import HeraldService

/// Sample categories and small readers for category tests.
enum CategorySamples {
    /// A chat category with English, Polish and Portuguese templates and a collapse rule.
    static func chat(id: String = "chat.message", extra: [String: Any] = [:]) -> String {
        let messages = "{count, plural, one {# new message} other {# new messages}}"
        let wiadomosci =
            "{count, plural, one {# nowa wiadomość} few {# nowe wiadomości} many {# nowych wiadomości}"
            + " other {# wiadomości}}"
        let others = "{others, plural, one {# other} other {# others}}"
        var document: [String: Any] = [
            "id": id, "name": "Chat message", "description": "A new message in a conversation",
            "priority": "high", "ttl_seconds": 3600, "thread_key_template": "conversation:{thread_id}",
            "collapse": ["key_template": "msg:{thread_id}", "window_seconds": 60],
            "rate_limit": ["count": 30, "window_seconds": 3600], "apns_category": "MESSAGE",
            "android_channel_id": "messages", "default_locale": "en",
            "templates": [
                "en": [
                    "title": "{actor}", "body": messages + ": {preview}",
                    "digest_title":
                        "{actor_count, plural, one {{first_actor}} other {{first_actor} and \(others)}}",
                    "digest_body": messages,
                ],
                "pl": ["title": "{actor}", "body": wiadomosci + ": {preview}", "digest_body": wiadomosci],
                "pt": ["title": "{actor}", "body": "{count, plural, one {# nova mensagem} other {# novas mensagens}}"],
            ],
        ]
        document.merge(extra) { $1 }
        return json(document)
    }

    /// `object` as JSON text.
    static func json(_ object: Any) -> String {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}

extension TestService {
    /// Creates the sample chat category and returns its response.
    @discardableResult
    func createChat(id: String = "chat.message", key: String?? = .some(nil)) -> HTTPResponse {
        send(.post, "/v1/categories", json: CategorySamples.chat(id: id), key: key)
    }
}

extension JSONValue {
    /// The string inside, if this is a string.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The integer inside, if this is an integer.
    var intValue: Int? {
        if case .int(let number) = self { return number }
        return nil
    }

    /// The elements, if this is an array.
    var arrayValue: [JSONValue] {
        if case .array(let elements) = self { return elements }
        return []
    }

    /// The value at a path of member names.
    func at(_ path: String...) -> JSONValue? {
        path.reduce(Optional(self)) { value, name in value?[name] }
    }
}
