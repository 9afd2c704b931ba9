import Foundation
import Testing

@testable import HeraldPostgres

@Suite struct PipelineArrayTests {
    /// Prepared, so the array travels in binary (`PostgresParameters`).
    static let elements = Query(
        name: "test.array_elements",
        sql: "SELECT e, e IS NULL AS is_null FROM unnest($1::text[]) WITH ORDINALITY AS t(e, n) ORDER BY n")
    /// Never prepared, so the same array travels as the text literal.
    static let elementsUnprepared = Query(unsafeSQL: elements.sql, name: "test.array_elements_text")

    /// Every element comes back as it went in, in binary and as text: quotes and backslashes at either end, runs of
    /// them, the array's own punctuation, multi-byte text, the empty string and NULL.
    @Test(arguments: [true, false])
    func elementsRoundTripThroughPostgreSQL(prepared: Bool) throws {
        let values: [String?] = [
            "plain", "", "\"", "\\", "\"\\\"", "a\"b\\c", "\\\\end\\", "\"start", "{a,b}", "NULL", nil, "x, y",
            "Grüße \"你好\" \\👩‍👩‍👧‍👦", String(repeating: "{\"k\":\"v\\\\n\"},", count: 200),
        ]
        let connection = try freshConnection()
        let query = prepared ? Self.elements : Self.elementsUnprepared
        for array in [values, [], [nil], [nil, nil], ["only"]] {
            let rows = try connection.query(query, [PipelineArray(optional: array)])
            #expect(rows.count == array.count)
            for (row, value) in zip(rows, array) {
                #expect(try row.decode(String?.self, "e") == value)
                #expect(try row.bool("is_null") == (value == nil))
            }
        }
        #expect((connection.preparedStatements[Self.elements.name!]?.textArrays == [true]) == prepared)
    }

    @Test func escapingPutsABackslashBeforeEachQuoteAndBackslash() {
        #expect(PipelineArray(["a\"b\\c", ""]).postgresText == #"{"a\"b\\c",""}"#)
        #expect(PipelineArray(optional: [nil, "\\"]).postgresText == #"{NULL,"\\"}"#)
        #expect(PipelineArray([]).postgresText == "{}")
    }

    /// A NUL byte is refused before anything is sent, in a text value and in an element of a binary array alike.
    @Test(arguments: [true, false])
    func aNULByteInAParameterIsRefusedNamingIt(prepared: Bool) throws {
        let connection = try freshConnection()
        let query = prepared ? Self.elements : Self.elementsUnprepared
        for (parameters, named) in [
            ([PipelineArray(["ok"]), "bad\u{0}"], "$2"), ([PipelineArray(["ok", "b\u{0}d"])], "$1"),
        ] as [([any PostgresEncodable], String)] {
            do {
                _ = try connection.query(query, parameters)
                Issue.record("a NUL byte was sent")
            } catch let error as PostgresError {
                #expect(error.kind == .invalidValue)
                #expect(error.detailMessage?.contains(named) == true)
            }
        }
        #expect(try connection.query(query, [PipelineArray(["still usable"])]).count == 1)
    }
}
