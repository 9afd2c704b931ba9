import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

/// The database deadlines as settings, and the one problem every route answers when the database could not do the
/// work in time.
@Suite struct DatabaseSettingsTests {
    @Test func timeoutsHaveDefaultsAndAreValidatedTogether() throws {
        let defaults = try ServiceConfig.load(environment: [:], arguments: []).get()
        #expect(defaults.databaseStatementTimeoutMilliseconds == 30_000)
        #expect(defaults.databaseLockTimeoutMilliseconds == 5_000)
        #expect(defaults.databasePoolWaitMilliseconds == 5_000)
        let pool = defaults.requestPoolConfiguration(conninfo: "dbname=x")
        #expect(pool.maximumWait == .milliseconds(5_000))
        #expect(pool.sessionParameters.map(\.name) == ["statement_timeout", "lock_timeout"])
        #expect(pool.sessionParameters.map(\.value) == ["30000", "5000"])

        let set = try ServiceConfig.load(
            environment: ["HERALD_DB_LOCK_TIMEOUT_MS": "0"], arguments: ["--db-pool-wait-ms", "250"]
        ).get()
        #expect(set.databaseLockTimeoutMilliseconds == 0)
        #expect(set.databasePoolWaitMilliseconds == 250)

        guard
            case .failure(let problems) = ServiceConfig.load(
                environment: [
                    "HERALD_DB_STATEMENT_TIMEOUT_MS": "-1", "HERALD_DB_LOCK_TIMEOUT_MS": "soon",
                    "HERALD_DB_POOL_WAIT_MS": "0",
                ], arguments: [])
        else {
            Issue.record("bad timeouts were accepted")
            return
        }
        #expect(
            problems.problems.map(\.setting) == [
                "HERALD_DB_STATEMENT_TIMEOUT_MS", "HERALD_DB_LOCK_TIMEOUT_MS", "HERALD_DB_POOL_WAIT_MS",
            ])
    }

    @Test(arguments: [
        PostgresError.Kind.poolTimeout, .lockNotAvailable, .queryCanceled, .connectionLost, .connectionFailed,
        .deadlock, .serializationFailure,
    ])
    func aDatabaseThatCouldNotDoTheWorkIsA503WithRetryAfter(kind: PostgresError.Kind) throws {
        let problem = try #require(DatabaseProblem.problem(for: PostgresError(kind: kind, message: "x")))
        #expect(problem.status == .serviceUnavailable)
        #expect(problem.type == "database-unavailable")
        #expect(problem.headers["Retry-After"] == "1")
    }

    @Test(arguments: [PostgresError.Kind.uniqueViolation, .invalidStatement, .decoding, .checkViolation])
    func aDefectIsNotDisguisedAsUnavailability(kind: PostgresError.Kind) {
        #expect(DatabaseProblem.problem(for: PostgresError(kind: kind, message: "x")) == nil)
    }
}
