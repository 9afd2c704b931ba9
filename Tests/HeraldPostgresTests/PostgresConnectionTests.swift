import Foundation
import Testing

@testable import HeraldPostgres

@Suite struct PostgresConnectionTests {
    static let echo = Query(name: "test.echo", sql: "SELECT $1::text AS value, $1::text IS NULL AS is_null")

    @Test(arguments: [
        "plain", "", "Grüße, 你好, שלום, 👩‍👩‍👧‍👦", "'; DROP TABLE users; --", "$1 $2 \\ \" ' \t\n\r", "Robert'); --",
    ])
    func textRoundTripsUnchanged(value: String) throws {
        let connection = try freshConnection()
        let row = try connection.query(Self.echo, [value]).single()
        #expect(try row.string("value") == value)
        #expect(try row.bool("is_null") == false)
    }

    @Test func nullBindsAsSQLNull() throws {
        let connection = try freshConnection()
        let row = try connection.query(Self.echo, [nil]).single()
        #expect(try row.isNull("value"))
        #expect(try row.bool(1))
        #expect(try row.decode(String?.self, "value") == nil)
        #expect(throws: PostgresError.self) { try row.string("value") }
    }

    /// Cells of many rows and columns, NULL, empty, multi-byte and long among them, each read back from its own
    /// place in the result.
    @Test func everyCellOfAResultKeepsItsPlace() throws {
        let connection = try freshConnection()
        let query = Query(
            name: "test.cells",
            sql: """
                SELECT n, CASE n % 4 WHEN 0 THEN NULL WHEN 1 THEN '' WHEN 2 THEN 'ü' || n ELSE repeat('x', n * 50) END
                    AS mixed, NULL::text AS empty
                FROM generate_series(1, 60) AS n
                """)
        let rows = Array(try connection.query(query))
        #expect(rows.count == 60)
        for (index, row) in rows.enumerated() {
            let n = index + 1
            #expect(try row.int("n") == n)
            let expected: String? = [nil, "", "ü\(n)", String(repeating: "x", count: n * 50)][n % 4]
            #expect(try row.text("mixed") == expected)
            #expect(try row.isNull("empty"))
        }
    }

    @Test func injectionLookingValueIsStoredNotExecuted() throws {
        let connection = try freshConnection()
        try connection.executeScript(Query(name: "test.create", sql: "CREATE TABLE people (name text NOT NULL)"))
        let hostile = "x'); DROP TABLE people; --"
        try connection.execute(Query(name: "test.insert", sql: "INSERT INTO people (name) VALUES ($1)"), [hostile])
        let rows = try connection.query(Query(name: "test.select", sql: "SELECT name FROM people"))
        #expect(rows.count == 1)
        #expect(try rows[0].string(0) == hostile)
    }

    @Test func typedGettersReadEveryType() throws {
        let connection = try freshConnection()
        let when = Date(timeIntervalSince1970: 1_790_000_000.123456)
        let row = try connection.query(
            Query(
                name: "test.types",
                sql: """
                    SELECT 42::int AS i, 9007199254740993::bigint AS big, true AS yes, 2.5::float8 AS d,
                           $1::timestamptz AS at, '{"a": [1, "x"]}'::jsonb AS doc, 'é'::text AS s
                    """), [when]
        ).single()
        #expect(try row.int("i") == 42)
        #expect(try row.int64("big") == 9_007_199_254_740_993)
        #expect(try row.bool("yes"))
        #expect(try row.double("d") == 2.5)
        #expect(abs(try row.date("at").timeIntervalSince(when)) < 0.000_001)
        #expect(try row.json("doc") == #"{"a": [1, "x"]}"#)
        #expect(try row.string("s") == "é")
        #expect(try row.int(0) == 42)
        #expect(throws: PostgresError.self) { try row.int("s") }
        #expect(throws: PostgresError.self) { try row.int("missing") }
    }

    @Test func affectedRowsAreCounted() throws {
        let connection = try freshConnection()
        try connection.executeScript(Query(name: "test.create", sql: "CREATE TABLE n (v int)"))
        let inserted = try connection.execute(
            Query(name: "test.fill", sql: "INSERT INTO n SELECT generate_series(1, $1::int)"), [7])
        let deleted = try connection.execute(Query(name: "test.delete", sql: "DELETE FROM n WHERE v > $1"), [3])
        #expect(inserted == 7)
        #expect(deleted == 4)
    }

    @Test func namedQueriesArePreparedOncePerSession() throws {
        let connection = try freshConnection()
        for value in 1...3 { try connection.query(Self.echo, [value]) }
        let prepared = try connection.query(
            Query(name: "test.prepared", sql: "SELECT count(*) FROM pg_prepared_statements WHERE name = $1"),
            ["test.echo"]
        ).single().int(0)
        #expect(prepared == 1)
        try connection.query(Query(unsafeSQL: "SELECT $1::int", name: "dynamic"), [1])
        #expect(connection.preparedStatements["dynamic"] == nil)
    }

    @Test(arguments: [
        (
            "CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1)", "INSERT INTO t VALUES ($1)", "23505",
            PostgresError.Kind.uniqueViolation
        ),
        (
            "CREATE TABLE t (v int CONSTRAINT t_v_positive CHECK (v > 1))", "INSERT INTO t VALUES ($1)", "23514",
            .checkViolation
        ),
        ("CREATE TABLE t (v int NOT NULL)", "INSERT INTO t VALUES (NULLIF($1::int, 1))", "23502", .notNullViolation),
        ("SELECT 1", "SELECT 1 / ($1::int - 1)", "22012", .invalidValue),
        ("SELECT 1", "SELECT * FROM missing_table WHERE id = $1", "42P01", .invalidStatement),
    ])
    func errorsCarrySQLStateAndLeakNothing(
        setup: String, statement: String, state: String, kind: PostgresError.Kind
    )
        throws
    {
        let connection = try freshConnection()
        try connection.executeScript(Query(unsafeSQL: setup))
        let secret = 1
        let error = try #require(throws: PostgresError.self) {
            try connection.query(Query(unsafeSQL: statement, name: "test.failing"), [secret])
        }
        #expect(error.sqlState == state)
        #expect(error.kind == kind)
        #expect(!error.description.contains("INSERT") && !error.description.contains("SELECT"))
        #expect(!error.description.contains("missing_table") && !error.description.contains("Key"))
        #expect(!error.debugDescription.isEmpty)
        #expect(error.isRetryable == false)
    }

    @Test func uniqueViolationNamesTheConstraintButNotTheValue() throws {
        let connection = try freshConnection()
        try connection.executeScript(
            Query(unsafeSQL: "CREATE TABLE users (email text CONSTRAINT users_email_unique UNIQUE)"))
        let insert = Query(name: "test.user", sql: "INSERT INTO users (email) VALUES ($1)")
        try connection.execute(insert, ["asha@example.com"])
        let error = try #require(throws: PostgresError.self) { try connection.execute(insert, ["asha@example.com"]) }
        #expect(error.kind == .uniqueViolation)
        #expect(error.constraint == "users_email_unique")
        #expect(!error.description.contains("asha"))
        #expect(!String(describing: error).contains("asha"))
    }

    @Test func aRowNoPartitionTakesIsNotRefusedData() throws {
        let connection = try freshConnection()
        try connection.executeScript(
            Query(
                unsafeSQL: """
                    CREATE TABLE days (day int CONSTRAINT days_positive CHECK (day > 0)) PARTITION BY RANGE (day);
                    CREATE TABLE days_1 PARTITION OF days FOR VALUES FROM (-9) TO (10);
                    """))
        let insert = Query(name: "test.day", sql: "INSERT INTO days (day) VALUES ($1::int)")
        try connection.execute(insert, ["5"])
        let unrouted = try #require(throws: PostgresError.self) { try connection.execute(insert, ["50"]) }
        #expect(unrouted.sqlState == "23514")
        #expect(unrouted.constraint == nil)
        #expect(!unrouted.refusesData)
        let checked = try #require(throws: PostgresError.self) { try connection.execute(insert, ["-1"]) }
        #expect(checked.sqlState == "23514")
        #expect(checked.refusesData)
        let malformed = try #require(throws: PostgresError.self) { try connection.execute(insert, ["five"]) }
        #expect(malformed.sqlState == "22P02")
        #expect(malformed.refusesData)
    }

    @Test func transactionRollsBackOnThrowAndCommitsOtherwise() throws {
        let connection = try freshConnection()
        try connection.executeScript(Query(unsafeSQL: "CREATE TABLE t (v int)"))
        let insert = Query(name: "test.insert", sql: "INSERT INTO t VALUES ($1)")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try connection.transaction { connection in
                try connection.execute(insert, [1])
                throw Abort()
            }
        }
        #expect(connection.isIdle)
        try connection.transaction(.serializable) { connection in try connection.execute(insert, [2]) }
        let values = try connection.query(Query(name: "test.all", sql: "SELECT v FROM t")).map { try $0.int(0) }
        #expect(values == [2])
    }

    @Test func noticesGoToTheHandlerNotStderr() throws {
        let connection = try freshConnection()
        var notices: [PostgresNotice] = []
        connection.noticeHandler = { notices.append($0) }
        try connection.executeScript(Query(unsafeSQL: "DO $$ BEGIN RAISE NOTICE 'hello %', 42; END $$"))
        #expect(notices.map(\.message) == ["hello 42"])
        #expect(notices.first?.severity == "NOTICE")
    }

    @Test func nulByteInParameterIsRejectedBeforeSending() throws {
        let connection = try freshConnection()
        let error = try #require(throws: PostgresError.self) { try connection.query(Self.echo, ["a\u{0}b"]) }
        #expect(error.kind == .invalidValue)
    }

    @Test func badConninfoFailsToConnect() throws {
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection(conninfo: "host=127.0.0.1 port=1 connect_timeout=2")
        }
        #expect(error.kind == .connectionFailed)
        #expect(error.isRetryable)
    }
}
