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

    @Test func anUnknownNameIsADecodingErrorNamingIt() {
        #expect {
            try Self.result[0].text("missing")
        } throws: { error in
            guard let error = error as? PostgresError else { return false }
            return error.kind == .decoding && error.debugDescription.contains("missing")
        }
    }
}
