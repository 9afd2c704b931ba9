import Foundation
import Testing

@testable import HeraldPostgres

@Suite struct PipelineArrayTests {
    static let elements = Query(
        name: "test.array_elements",
        sql: "SELECT e, e IS NULL AS is_null FROM unnest($1::text[]) WITH ORDINALITY AS t(e, n) ORDER BY n")

    /// Every element comes back as it went in: quotes and backslashes at either end, runs of them, the array's own
    /// punctuation, multi-byte text, the empty string and NULL.
    @Test func elementsRoundTripThroughPostgreSQL() throws {
        let values: [String?] = [
            "plain", "", "\"", "\\", "\"\\\"", "a\"b\\c", "\\\\end\\", "\"start", "{a,b}", "NULL", nil, "x, y",
            "Grüße \"你好\" \\👩‍👩‍👧‍👦", String(repeating: "{\"k\":\"v\\\\n\"},", count: 200),
        ]
        let connection = try freshConnection()
        let rows = try connection.query(Self.elements, [PipelineArray(optional: values)])
        #expect(rows.count == values.count)
        for (row, value) in zip(rows, values) {
            #expect(try row.decode(String?.self, "e") == value)
            #expect(try row.bool("is_null") == (value == nil))
        }
    }

    @Test func escapingPutsABackslashBeforeEachQuoteAndBackslash() {
        #expect(PipelineArray(["a\"b\\c", ""]).postgresText == #"{"a\"b\\c",""}"#)
        #expect(PipelineArray(optional: [nil, "\\"]).postgresText == #"{NULL,"\\"}"#)
        #expect(PipelineArray([]).postgresText == "{}")
    }

    @Test func aNULByteInAParameterIsRefusedNamingIt() throws {
        let connection = try freshConnection()
        #expect(throws: PostgresError.self) { try PostgresParameters(["a\u{0}b"]) }
        #expect(throws: PostgresError.self) { try PostgresParameters([nil, PipelineArray(["ok", "\u{0}"])]) }
        #expect(try PostgresParameters(["", "Grüße", nil, PipelineArray([])]).count == 4)
        do {
            _ = try connection.query(Self.elements, [PipelineArray(["ok"]), "bad\u{0}"])
            Issue.record("a NUL byte was sent")
        } catch let error as PostgresError {
            #expect(error.kind == .invalidValue)
            #expect(error.detailMessage?.contains("$2") == true)
        }
    }

    /// What a parameter writes into the buffer libpq sends from is exactly the text it renders.
    @Test func aParameterWritesItsTextAsItRendersIt() {
        let values: [any PostgresEncodable] = [
            "Grüße \"x\"", "", 42, Int64(-7), true, 1.5, Date(timeIntervalSince1970: 1_000_000.25),
            PipelineArray(optional: ["a\"b\\c", nil, ""]), PipelineArray([]), JSONText(#"{"k":1}"#),
        ]
        for value in values {
            var bytes: [UInt8] = [9]
            value.appendPostgresText(to: &bytes)
            #expect(bytes == [9] + Array(value.postgresText.utf8), "\(value.postgresText)")
        }
    }
}
