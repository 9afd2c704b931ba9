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
