import HeraldHTTP

/// The dispatchers `herald serve` (and the benchmark's in-process server) answer requests with.
extension ServiceContext {
    /// Every route of the API port, with the service's credentials, failure limit and database problems.
    func apiDispatcher() -> RequestDispatcher {
        RequestDispatcher(
            router: APIRoutes.router(context: self), authenticator: authenticator, logger: logger,
            clientTokens: clientTokenAuthentication, dependencyProblem: DatabaseProblem.problem(for:),
            authFailures: config.authFailureLimit.map { AuthFailureLimiter(limit: $0) })
    }

    /// `/metrics` alone, for its own address.
    func metricsDispatcher() -> RequestDispatcher {
        var router = Router()
        OperationsAPI.registerMetrics(on: &router, context: self)
        return RequestDispatcher(router: router, authenticator: authenticator, logger: logger)
    }
}
