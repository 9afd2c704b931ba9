import HeraldHTTP
import HeraldPostgres

/// What a handler's caller hears when the database could not do the work in time: a 503 with `Retry-After`, for
/// every route alike. The work never half-happens: a timed-out statement rolls its transaction back, and a request
/// that found no free connection never started.
enum DatabaseProblem {
    static func problem(for error: any Error) -> HTTPError? {
        guard let error = error as? PostgresError else { return nil }
        let detail: String
        switch error.kind {
        case .poolTimeout:
            detail = "Every database connection stayed busy; retry shortly."
        case .lockNotAvailable, .queryCanceled:
            detail = "The database did not finish the work in time; retry shortly."
        case _ where error.isRetryable:
            detail = "The database is briefly unavailable; retry shortly."
        default:
            return nil
        }
        return HTTPError(
            status: .serviceUnavailable, type: "database-unavailable", detail: detail, headers: ["Retry-After": "1"])
    }
}
