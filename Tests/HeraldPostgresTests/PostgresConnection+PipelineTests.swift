import Foundation
import Testing

@testable import HeraldPostgres

@Suite struct PipelineAndCopyTests {
    static let createTable = Query(
        name: "test.create",
        sql: """
            CREATE TABLE items (
                id int PRIMARY KEY, label text, doc jsonb, CONSTRAINT items_id_positive CHECK (id > 0)
            )
            """)
    static let insert = Query(name: "test.insert", sql: "INSERT INTO items (id, label, doc) VALUES ($1, $2, $3)")
    static let count = Query(name: "test.count", sql: "SELECT count(*) FROM items")

    @Test func pipelineRunsEveryStatementAndReturnsEachResult() throws {
        let connection = try freshConnection()
        try connection.executeScript(Self.createTable)
        var batch = [BoundQuery(Query(name: "test.begin", sql: "BEGIN"))]
        batch += (1...1000).map { (id: Int) in BoundQuery(Self.insert, [id, "item \(id)", JSONText(#"{"n": \#(id)}"#)])
        }
        batch.append(BoundQuery(Query(name: "test.sum", sql: "SELECT sum(id) FROM items")))
        batch.append(BoundQuery(Query(name: "test.commit", sql: "COMMIT")))
        let results = try connection.pipeline(batch)
        #expect(results.count == 1003)
        #expect(results[1].affectedRows == 1)
        #expect(try results[1001].single().int(0) == 500_500)
        #expect(try connection.query(Self.count).single().int(0) == 1000)
        #expect(connection.isIdle)
    }

    /// Statements and results far larger than both sockets' buffers: the server answers while the batch is still
    /// being sent, and the batch neither blocks nor loses a byte.
    @Test func pipelineLargerThanTheSocketBuffersBothWays() throws {
        let connection = try freshConnection()
        let echo = Query(name: "test.echo", sql: "SELECT $1::text AS value, length($1::text) AS length")
        let texts = (0..<48).map { index in String(repeating: String(index % 10), count: 300_000 + index) }
        let results = try connection.pipeline(texts.map { BoundQuery(echo, [$0]) })
        #expect(results.count == texts.count)
        for (text, result) in zip(texts, results) {
            #expect(try result.single().string("value") == text)
            #expect(try result.single().int("length") == text.count)
        }
        #expect(connection.isIdle)
    }

    @Test(arguments: [true, false])
    func errorInTheMiddleAbortsTheRestAndIsReported(explicitTransaction: Bool) throws {
        let connection = try freshConnection()
        try connection.executeScript(Self.createTable)
        var batch = (1...10).map { BoundQuery(Self.insert, [$0, "ok", nil]) }
        batch[4] = BoundQuery(Self.insert, [-5, "violates the check", nil])
        if explicitTransaction {
            batch.insert(BoundQuery(Query(name: "test.begin", sql: "BEGIN")), at: 0)
            batch.append(BoundQuery(Query(name: "test.commit", sql: "COMMIT")))
        }
        let error = try #require(throws: PostgresError.self) { try connection.pipeline(batch) }
        #expect(error.kind == .checkViolation)
        #expect(error.statementIndex == (explicitTransaction ? 5 : 4))
        #expect(try connection.query(Self.count).single().int(0) == 0)
        #expect(connection.isIdle)
        // The session stays usable after an aborted pipeline.
        #expect(try connection.pipeline([BoundQuery(Self.insert, [1, "again", nil])]).count == 1)
    }

    @Test func copyStoresAwkwardTextExactly() throws {
        let connection = try freshConnection()
        try connection.executeScript(Self.createTable)
        let awkward: [String?] = [
            "tab\there", "new\nline", "carriage\rreturn", #"back\slash"#, #"\N"#, "\\.", "", nil, "ünïcødé 🎉",
            "trailing backslash \\", "mixed\t\\n\n\r\\t",
        ]
        let copied = try connection.copyIn(Query(name: "test.copy", sql: "COPY items (id, label) FROM STDIN")) {
            writer in
            for (index, label) in awkward.enumerated() { try writer.append([index + 1, label]) }
        }
        #expect(copied == awkward.count)
        let stored = try connection.query(Query(name: "test.labels", sql: "SELECT label FROM items ORDER BY id"))
            .map { try $0.decode(String?.self, 0) }
        #expect(stored == awkward)
    }

    @Test func copyOfTextRowsStoresWhatAnArrayRowStores() throws {
        let connection = try freshConnection()
        try connection.executeScript(Self.createTable)
        let labels: [String?] = [
            "tab\there", "new\nline", #"back\slash"#, #"\N"#, "", nil, "ünïcødé 🎉",
            String(repeating: "é\t", count: 4_000),
        ]
        // 9,000 rows of up to 12 KB cross the writer's 256 KB chunks many times.
        let copied = try connection.copyIn(Query(name: "test.copy", sql: "COPY items (id, label, doc) FROM STDIN")) {
            writer in
            for id in 1...9_000 {
                let doc: String? = id % 3 == 0 ? nil : #"{"id": \#(id)}"#
                try writer.append(texts: [String(id), labels[id % labels.count], doc])
            }
        }
        #expect(copied == 9_000)
        let stored = try connection.query(
            Query(name: "test.rows", sql: "SELECT id, label, doc->>'id' FROM items ORDER BY id"))
        #expect(stored.count == 9_000)
        for row in stored {
            let id = try row.int(0)
            #expect(try row.decode(String?.self, 1) == labels[id % labels.count])
            #expect(try row.decode(String?.self, 2) == (id % 3 == 0 ? nil : String(id)))
        }
        #expect(throws: PostgresError.self) {
            try connection.copyIn(Query(name: "test.copy", sql: "COPY items (id, label) FROM STDIN")) { writer in
                try writer.append(texts: ["9001", "nul \u{00} inside"])
            }
        }
    }

    @Test func copyOfManyRowsCrossesChunkBoundaries() throws {
        let connection = try freshConnection()
        try connection.executeScript(Self.createTable)
        let rows = (1...20_000).lazy.map { id -> [(any PostgresEncodable)?] in
            [id, String(repeating: "x\t", count: id % 50), JSONText(#"{"id": \#(id)}"#)]
        }
        let copied = try connection.copyIn(
            Query(name: "test.copy", sql: "COPY items (id, label, doc) FROM STDIN"), rows: rows)
        #expect(copied == 20_000)
        let check = try connection.query(
            Query(name: "test.check", sql: "SELECT sum(length(label)), sum((doc->>'id')::int) FROM items")
        ).single()
        #expect(try check.int(0) == (1...20_000).reduce(0) { $0 + 2 * ($1 % 50) })
        #expect(try check.int(1) == 200_010_000)
    }

    @Test func failedCopyStoresNothingAndLeavesSessionUsable() throws {
        let connection = try freshConnection()
        try connection.executeScript(Self.createTable)
        let error = try #require(throws: PostgresError.self) {
            try connection.copyIn(
                Query(name: "test.copy", sql: "COPY items (id, label) FROM STDIN"),
                rows: [[1, "a"], [1, "duplicate"]] as [[(any PostgresEncodable)?]])
        }
        #expect(error.kind == .uniqueViolation)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.copyIn(Query(name: "test.copy", sql: "COPY items (id, label) FROM STDIN")) { writer in
                try writer.append([2, "b"])
                throw Stop()
            }
        }
        #expect(try connection.query(Self.count).single().int(0) == 0)
    }
}
