import Foundation
import Testing

@testable import HeraldPostgres

@Suite struct PostgresParametersTests {
    /// The bytes `array_recv` reads for a one-dimensional `text[]`, integers big-endian.
    @Test func aTextArrayIsLaidOutAsPostgreSQLReadsABinaryArray() throws {
        var bytes: [UInt8] = []
        try PostgresParameters.appendBinary(["ab", nil, ""], to: &bytes, parameter: 0)
        #expect(
            bytes == [
                0, 0, 0, 1,  // one dimension
                0, 0, 0, 1,  // an element is NULL
                0, 0, 0, 25,  // of text
                0, 0, 0, 3, 0, 0, 0, 1,  // three elements from index 1
                0, 0, 0, 2, 97, 98,  // "ab"
                255, 255, 255, 255,  // NULL
                0, 0, 0, 0,  // ""
            ])
        bytes = []
        try PostgresParameters.appendBinary([], to: &bytes, parameter: 0)
        #expect(bytes == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 25])
    }

    /// Only a `text[]` parameter of a prepared statement is sent in binary: the server reads a binary element in
    /// its type's own binary form, so an array of numbers, times or booleans keeps its text literal.
    static let mixed = Query(
        name: "test.parameters_mixed",
        sql: """
            SELECT (SELECT string_agg(t, '|' ORDER BY n) FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n)) AS texts,
                   (SELECT sum(b) FROM unnest($2::bigint[]) AS b) AS total,
                   (SELECT max(d) FROM unnest($3::timestamptz[]) AS d) AS latest,
                   (SELECT bool_and(f) FROM unnest($4::boolean[]) AS f) AS every,
                   $5::text AS plain
            """)

    @Test func arraysOfOtherTypesStayText() throws {
        let connection = try freshConnection()
        let latest = Date(timeIntervalSince1970: 1_800_000_000.25)
        let row = try connection.query(
            Self.mixed,
            [
                PipelineArray(["a\"b", "c\\d"]), PipelineArray(["1", "2", "40"]),
                PipelineArray(encoding: [Date(timeIntervalSince1970: 0), latest]), PipelineArray(["true", "true"]),
                "{\"not\": \"an array\"}",
            ]
        ).single()
        #expect(connection.preparedStatements[Self.mixed.name!]?.textArrays == [true, false, false, false, false])
        #expect(try row.string("texts") == "a\"b|c\\d")
        #expect(try row.int("total") == 43)
        #expect(try row.date("latest") == latest)
        #expect(try row.bool("every"))
        #expect(try row.string("plain") == "{\"not\": \"an array\"}")
    }

    /// A pipeline sends prepared statements' `text[]` in binary too, NULL parameters beside them.
    @Test func aPipelineSendsBinaryArrays() throws {
        let connection = try freshConnection()
        let results = try connection.pipeline([
            BoundQuery(PipelineArrayTests.elements, [PipelineArray(optional: ["x", nil, "{\"k\":\"v\"}"])]),
            BoundQuery(Self.mixed, [PipelineArray([]), nil, nil, nil, nil]),
        ])
        #expect(try results[0].map { try $0.decode(String?.self, "e") } == ["x", nil, "{\"k\":\"v\"}"])
        let row = try results[1].single()
        #expect(try row.decode(String?.self, "texts") == nil)
        #expect(try row.decode(String?.self, "plain") == nil)
    }
}
