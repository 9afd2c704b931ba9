import Testing

@testable import HeraldPostgres

@Suite struct PostgresResultTests {
    static let result = PostgresResult(
        columns: ["id", "piece", "a_column_name_longer_than_fifteen_bytes", "piece"],
        cells: ["u1", "1", "long", "2", "u2", nil, "longer", "4"], affectedRows: 2)

    @Test func cellsAreFoundByNameAndPosition() throws {
        let rows = Array(Self.result)
        #expect(rows.count == 2)
        #expect(try rows[1].text("id") == "u2")
        #expect(try rows[1].text("a_column_name_longer_than_fifteen_bytes") == "longer")
        #expect(try rows[0].text(3) == "2")
        #expect(try rows[1].isNull("piece"))
    }

    /// A name that appears twice (a join's columns, say) finds the first of them, as SQL clients do.
    @Test func aRepeatedNameFindsItsFirstColumn() throws {
        #expect(try Self.result[0].text("piece") == "1")
    }

    /// Names that share their length and their first and last bytes (one slot of the lookup table) and a table
    /// larger than the smallest: every name finds its own column, and a missing name of the same shape none.
    @Test func namesThatShareASlotAreToldApart() throws {
        let names =
            (0..<40).map { "c_\(Character(UnicodeScalar(UInt8(65 + $0 % 26))))\($0 / 26)_z" } + ["", "é_x", "ü_x"]
        let cells = names.indices.map { Optional(String($0)) }
        let row = PostgresResult(columns: names, cells: cells, affectedRows: 1)[0]
        for (position, name) in names.enumerated() {
            #expect(try row.text(name) == String(position), "\(name)")
        }
        #expect(throws: PostgresError.self) { try row.text("c_Z9_z") }
        #expect(throws: PostgresError.self) { try row.text("ö_x") }
    }

    /// Names match byte for byte, as PostgreSQL matches them: "café" spelled with one code point and with a
    /// combining accent are two columns, each found by its own spelling only.
    @Test func namesMatchByteForByte() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let one = PostgresResult(columns: ["id", composed], cells: ["u1", "x"], affectedRows: 1)[0]
        #expect(try one.text(composed) == "x")
        #expect(throws: PostgresError.self) { try one.text(decomposed) }
        let both = PostgresResult(columns: [decomposed, composed], cells: ["d", "c"], affectedRows: 1)[0]
        #expect(try both.text(composed) == "c")
        #expect(try both.text(decomposed) == "d")
        // The same marks in the other order: equal as Swift strings, with the same length and end bytes (one slot).
        let marks = ["a\u{301}\u{316}x", "a\u{316}\u{301}x"]
        let reordered = PostgresResult(columns: marks, cells: ["1", "2"], affectedRows: 1)[0]
        #expect(try reordered.text(marks[0]) == "1")
        #expect(try reordered.text(marks[1]) == "2")
    }

    @Test func anUnknownNameIsADecodingErrorNamingIt() {
        #expect {
            try Self.result[0].text("missing")
        } throws: { error in
            guard let error = error as? PostgresError else { return false }
            return error.kind == .decoding && error.debugDescription.contains("missing")
        }
    }
}
