import Foundation
import Testing

@testable import HeraldCore

@Suite struct JSONSerializationTests {
    @Test(arguments: [
        ("quote\"", #""quote\"""#), ("back\\slash", #""back\\slash""#), ("line\nbreak", #""line\nbreak""#),
        ("\u{0}", #""\u0000""#), ("\u{1F}", #""\u001f""#), ("tab\t", #""tab\t""#), ("żółw 🐢", "\"żółw 🐢\""),
        ("</script>", #""</script>""#), ("\u{2028}x\u{FEFF}", #""\u2028x\ufeff""#),
    ])
    func escapesStrings(raw: String, json: String) {
        let bytes = JSONValue.string(raw).serialized()
        #expect(String(decoding: bytes, as: UTF8.self) == json)
        #expect(JSONValue.encodedLength(of: raw) == bytes.count)
    }

    @Test func sortsKeysAndWritesNumbersCompactly() {
        let value = JSONValue.object([
            "b": .int(2), "a": .array([.bool(true), .null, .double(1.5), .double(3)]), "c": .double(.nan),
        ])
        #expect(String(decoding: value.serialized(), as: UTF8.self) == #"{"a":[true,null,1.5,3],"b":2,"c":null}"#)
    }

    @Test func objectsOfStringsAreWrittenAsTheirTree() {
        let cases: [[String: String]] = [
            [:], ["apns-topic": "com.bench"],
            ["b": "2", "a": "1", "Z": "upper first", "é": "after ASCII", "quote\"": "line\nbreak", "": "\u{2028}"],
        ]
        for members in cases {
            let tree = JSONValue.object(members.mapValues { .string($0) }).serialized()
            #expect(JSONValue.serialized(stringMembers: members) == tree)
        }
        #expect(
            String(decoding: JSONValue.serialized(stringMembers: ["b": "2", "a": "1"]), as: UTF8.self)
                == #"{"a":"1","b":"2"}"#)
    }

    @Test func randomStringsAlwaysParseBack() {
        // Property: any Swift string, control characters and astral planes included, round-trips through
        // Foundation's parser.
        var generator = SeededGenerator(seed: 17)
        for _ in 0..<2_000 {
            let text = RandomText.string(length: Int.random(in: 0...40, using: &generator), using: &generator)
            let bytes = JSONValue.object(["k": .string(text)]).serialized()
            let parsed = Fixture.parse(bytes)
            #expect(parsed?["k"] as? String == text)
            #expect(JSONValue.encodedLength(of: text) + 6 == bytes.count)
        }
    }

    @Test func decodesEventDataKeepingIntegers() throws {
        let data = try JSONDecoder().decode(
            [String: JSONValue].self, from: Data(#"{"n":3,"x":1.25,"s":"a","b":false,"o":{"k":[1]},"z":null}"#.utf8))
        #expect(data["n"] == .int(3))
        #expect(data["x"] == .double(1.25))
        #expect(data["b"] == .bool(false))
        #expect(data["o"] == .object(["k": .array([.int(1)])]))
        #expect(data["z"] == .null)
        #expect(data["n"]?.scalarText == "3")
        #expect(data["o"]?.scalarText == nil)
    }
}
