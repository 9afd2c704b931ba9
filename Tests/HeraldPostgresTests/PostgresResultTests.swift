import Foundation
import Synchronization
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

    static let numbered = Query(
        name: "test.result_numbered",
        sql: """
            SELECT n, CASE WHEN n % 3 = 0 THEN NULL ELSE 'ü-' || n END AS label
            FROM generate_series(1, $1::int) AS n
            """)

    /// The rows a server returned stay readable after the connection ran other statements and after it is gone:
    /// they hold the server's result, not the connection.
    @Test func rowsOutliveTheirConnection() throws {
        var connection: PostgresConnection? = try freshConnection()
        let first = try connection!.query(Self.numbered, [300])
        let later = try connection!.pipeline([BoundQuery(Self.numbered, [5]), BoundQuery(Self.numbered, [7])])
        connection = nil
        #expect(first.count == 300 && first.affectedRows == 300)
        #expect(later.map(\.count) == [5, 7])
        for (index, row) in first.enumerated() {
            let n = index + 1
            #expect(try row.int("n") == n)
            #expect(try row.text("label") == (n % 3 == 0 ? nil : "ü-\(n)"))
        }
        #expect(try later[1][6].int(0) == 7)
    }

    /// One result read by many threads at once reads the same cells in each; a row kept apart keeps its result
    /// alive after the result itself is gone.
    @Test func oneResultIsReadByManyThreadsAtOnce() throws {
        let connection = try freshConnection()
        let shared = try connection.query(Self.numbered, [2_000])
        let sums = Mutex([Int](repeating: 0, count: 8))
        DispatchQueue.concurrentPerform(iterations: 8) { lane in
            var sum = 0
            for row in shared {
                sum += (try? row.int("n")) ?? -1_000_000
                sum += (try? row.text("label"))?.utf8.count ?? 0
            }
            sums.withLock { $0[lane] = sum }
        }
        let expected = (1...2_000).reduce(0) { $0 + $1 + ($1 % 3 == 0 ? 0 : "ü-\($1)".utf8.count) }
        #expect(sums.withLock { $0 } == [Int](repeating: expected, count: 8))
        let kept = try connection.query(Self.numbered, [2_000])[1_998]
        #expect(try kept.text("label") == "ü-1999")
    }
}

/// Numbers, flags and times are read from a cell's bytes in place; they must answer exactly as their texts do.
@Suite struct PostgresCellDecodingTests {
    private static func row(_ cells: [String?]) -> PostgresRow {
        PostgresResult(columns: cells.indices.map { "c\($0)" }, cells: cells, affectedRows: 1)[0]
    }

    @Test func integersReadInPlaceMatchTheirTexts() throws {
        let texts = [
            "0", "7", "-7", "+7", "042", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "-9223372036854775809", "2147483647", "2147483648", "-2147483648", "-2147483649", "", "-", "+", "1 ",
            " 1", "1.0", "1e3", "١",
        ]
        let row = Self.row(texts)
        for (column, text) in texts.enumerated() {
            #expect((try? row.decode(Int.self, column)) == Int(text, radix: 10), "\(text)")
            #expect((try? row.decode(Int64.self, column)) == Int64(text, radix: 10), "\(text)")
            #expect((try? row.decode(Int32.self, column)) == Int32(text, radix: 10), "\(text)")
        }
    }

    @Test func flagsTimesAndNullsReadInPlace() throws {
        let row = Self.row(["t", "f", "true", "false", "x", nil, "2026-12-06 02:00:01.5+00", "infinity", "soon"])
        #expect(try row.bool(0) == true)
        #expect(try row.bool(1) == false)
        #expect(try row.bool(2) == true)
        #expect(try row.bool(3) == false)
        #expect(throws: PostgresError.self) { try row.bool(4) }
        #expect(throws: PostgresError.self) { try row.bool(5) }
        #expect(try row.decode(Bool?.self, 5) == nil)
        #expect(try row.decode(Int?.self, 5) == nil)
        // Only the four words PostgreSQL prints: no prefix, no longer word, no other case.
        let near = Self.row(["tru", "falsey", "TRUE", "", "f "])
        for column in 0..<5 { #expect(throws: PostgresError.self) { try near.bool(column) } }
        #expect(try row.date(6) == Date(timeIntervalSince1970: 1_796_522_401.5))
        #expect(try row.date(7) == .distantFuture)
        #expect(throws: PostgresError.self) { try row.date(8) }
        #expect(throws: PostgresError.self) { try row.int(9) }
    }
}
