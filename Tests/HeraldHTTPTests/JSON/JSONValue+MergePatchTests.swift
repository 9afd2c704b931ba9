import HeraldHTTP
import Testing

@Suite struct MergePatchTests {
    private func json(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: Array(text.utf8))
    }

    /// The examples of RFC 7396 appendix A.
    @Test(arguments: [
        (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
        (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
        (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
        (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
        (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
        (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
        (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
        (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
        (#"{"a":"foo"}"#, "null", "null"),
        (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
        (#"{"e":null}"#, #"{"a":1}"#, #"{"a":1,"e":null}"#),
        (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
        (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
    ])
    func rfc7396Examples(target: String, patch: String, result: String) throws {
        #expect(try json(target).applyingMergePatch(json(patch)) == json(result))
    }

    @Test func serializationIsCanonical() throws {
        let value = try json(#"{"b":[1,2.5,true,null],"a":"x\"y\n","c":{"z":1,"y":-3}}"#)
        #expect(value.jsonText == #"{"a":"x\"y\n","b":[1,2.5,true,null],"c":{"y":-3,"z":1}}"#)
        #expect(try json(value.jsonText) == value)
    }

    @Test func numbersCompareByValue() {
        #expect(JSONValue.int(1) == .double(1.0))
        #expect(JSONValue.int(1) != .double(1.5))
        #expect(Set([JSONValue.int(2), .double(2)]).count == 1)
    }

    @Test func patchedTreeDecodesWithPointers() throws {
        struct Category: Codable, Equatable {
            var name: String
            var ttlSeconds: Int
        }
        let current = try JSONValue(encoding: Category(name: "chat", ttlSeconds: 60))
        #expect(current["ttl_seconds"] == .int(60))
        let patched = current.applyingMergePatch(try json(#"{"ttl_seconds":120}"#))
        #expect(try patched.decode(Category.self) == Category(name: "chat", ttlSeconds: 120))
        let broken = current.applyingMergePatch(try json(#"{"ttl_seconds":"soon"}"#))
        #expect(throws: HTTPError.invalidField("/ttl_seconds", "Expected an integer.")) {
            try broken.decode(Category.self)
        }
    }
}
