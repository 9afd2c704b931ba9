import Testing

@testable import HeraldCore

@Suite struct JSONWriterTests {
    /// Objects and arrays nested in each other come out as the tree of the same document serializes.
    @Test func nestedObjectsAndArraysAreTheTreesText() {
        var writer = JSONWriter()
        writer.openObject()
        writer.key("a")
        writer.openArray()
        for index in 0..<3 {
            writer.nextElement()
            writer.openObject()
            writer.key("i")
            writer.int(index)
            writer.key("s")
            writer.strings(index == 0 ? [] : ["x\"y", "é"])
            writer.closeObject()
        }
        writer.closeArray()
        writer.key("b")
        writer.json(.object(["k": .null, "j": .double(1.5)]))
        writer.key("c")
        writer.openArray()
        writer.closeArray()
        writer.closeObject()
        let items = (0..<3).map { index -> JSONValue in
            .object(["i": .int(index), "s": .array(index == 0 ? [] : [.string("x\"y"), .string("é")])])
        }
        let tree = JSONValue.object([
            "a": .array(items), "b": .object(["k": .null, "j": .double(1.5)]), "c": .array([]),
        ])
        #expect(writer.bytes == tree.serialized())
    }
}
