import HeraldCore
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    typealias Tree = JSONValue

    @Test(arguments: [
        (
            #"{"a":[1,-2.5,true,false,null,"x"]}"#,
            Tree.object(["a": .array([.int(1), .double(-2.5), .bool(true), .bool(false), .null, .string("x")])])
        ),
        (#" "tab\tquote\"slash\/uni\u00e9\ud83d\ude00" "#, .string("tab\tquote\"slash/uni\u{e9}\u{1F600}")),
        ("[1e3, 0, -0.5E-2, {}]", .array([.double(1000), .int(0), .double(-0.005), .object([:])])),
        (#"{"k":"v","k":"w"}"#, .object(["k": .string("w")])),
    ])
    func parsesWhatJSONAllows(_ text: String, _ expected: Tree) throws {
        #expect(try JSONParser.parse(Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":}", "01", "1.", "-", "\"\u{1}\"", "\"\\x\"", "\"\\ud800\"", "tru", "{} x", "[1 2]",
        String(repeating: "[", count: 100) + String(repeating: "]", count: 100), "1e999",
    ])
    func refusesWhatJSONDoesNot(_ text: String) {
        #expect(throws: JSONParser.Malformed.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    /// A string of ASCII is taken as it stands, one with any other byte only when it is valid UTF-8: a lone
    /// continuation byte, a cut sequence, an overlong form, a surrogate or a byte that UTF-8 never uses is refused,
    /// with or without an escape before it.
    @Test(
        arguments: [
            [0x80], [0xC3], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF], [0x61, 0x80, 0x62],
            [0x5C, 0x6E, 0xC3],
        ] as [[UInt8]])
    func refusesStringsThatAreNotUTF8(_ content: [UInt8]) {
        #expect(throws: JSONParser.Malformed.self) { try JSONParser.parse([0x22] + content + [0x22]) }
    }

    @Test func keepsTheBytesOfAsciiAndOfMultiByteText() throws {
        let ascii = String((0x20...0x7E).compactMap { $0 == 0x22 || $0 == 0x5C ? nil : Character(UnicodeScalar($0)) })
        for text in [ascii, "\u{7F}", "é", "ユーザー", "😀 and ascii", ""] {
            #expect(try JSONParser.parse(Array("\"\(text)\"".utf8)) == .string(text))
        }
    }
}

/// Reading member by member, as the stored-event codec does.
@Suite("JSON parser, member by member")
struct JSONParserMemberTests {
    @Test func membersAndElementsAreReadInOrderWithTheirTypes() throws {
        var parser = JSONParser(Array(#" {"a": "x", "b": null, "c": [ "p", "q" ], "d": {"e": 1}} "#.utf8))
        var seen: [String] = []
        try parser.readObject { (name, parser) throws(JSONParser.Malformed) in
            switch name {
            case "a": seen.append("a=" + (try parser.readString()))
            case "b": seen.append("b=" + (try parser.readOptionalString() ?? "nil"))
            case "c":
                try parser.readArray { (parser) throws(JSONParser.Malformed) in seen.append(try parser.readString()) }
            default: seen.append("\(name)=\(try parser.readValue())")
            }
        }
        try parser.end()
        #expect(seen == ["a=x", "b=nil", "p", "q", #"d=object(["e": HeraldCore.JSONValue.int(1)])"#])
    }

    @Test func aValueOfAnotherTypeIsMalformed() {
        var parser = JSONParser(Array("5".utf8))
        #expect(throws: JSONParser.Malformed.self) { try parser.readString() }
        var object = JSONParser(Array("[]".utf8))
        #expect(throws: JSONParser.Malformed.self) { try object.readObject { (_, _) throws(JSONParser.Malformed) in } }
    }
}
