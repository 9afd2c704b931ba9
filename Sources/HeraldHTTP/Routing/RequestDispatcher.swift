import HeraldCore
import HeraldObservability

/// Routes a request value, applies the route's auth requirement, runs the handler and turns every failure into a
/// problem response; the server calls it for each request, and tests call it without a socket.
public struct RequestDispatcher: Sendable {
    /// What happened to one request, for the access log and metrics.
    public struct Outcome: Sendable {
        /// The response to send, `X-Request-Id` included.
        public var response: HTTPResponse
        /// The matched route template, or nil when no route matched.
        public var route: String?
        /// The authenticated caller, if any.
        public var principal: Principal?
    }

    /// The route table.
    public let router: Router
    /// Resolves API key hashes to principals.
    public let authenticator: any Authenticator
    /// Where handler failures are reported.
    public let logger: Logger
    /// Verifies client tokens; nil when none are accepted.
    public let clientTokens: ClientTokenAuthentication?
    /// The problem for a failure of something the handlers depend on (a database busy or unreachable), or nil
    /// for a failure that is a defect (answered 500 and logged).
    public let dependencyProblem: @Sendable (any Error) -> HTTPError?
    /// Bounds unknown API keys per client address; nil for no bound.
    public let authFailures: AuthFailureLimiter?

    /// Creates a dispatcher.
    public init(
        router: Router, authenticator: any Authenticator, logger: Logger,
        clientTokens: ClientTokenAuthentication? = nil,
        dependencyProblem: @escaping @Sendable (any Error) -> HTTPError? = { _ in nil },
        authFailures: AuthFailureLimiter? = nil
    ) {
        self.router = router
        self.authenticator = authenticator
        self.logger = logger
        self.clientTokens = clientTokens
        self.dependencyProblem = dependencyProblem
        self.authFailures = authFailures
    }

    /// The response for a request, as the server would send it.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        dispatch(request).response
    }

    /// The verdict on a request's head.
    public enum Admission: Sendable {
        /// The request ends here, before its body.
        case refused(Outcome)
        /// The caller is settled (nil for a public route); the body may come, and the dispatch reuses the caller.
        case admitted(Principal?)
    }

    /// Dispatches a request and reports the route and principal alongside the response; `admitted` is the caller
    /// `admit` settled on the same request's head, so it is not looked up twice.
    public func dispatch(_ request: HTTPRequest, admitted: Principal?? = nil) -> Outcome {
        var outcome: Outcome
        switch router.resolve(method: request.method, path: request.path) {
        case .notFound:
            outcome = Outcome(response: problem(.notFound(), for: request), route: nil)
        case .malformedPath:
            let error = HTTPError.badRequest(
                "The path has a malformed percent escape.", type: "malformed-path")
            outcome = Outcome(response: problem(error, for: request), route: nil)
        case .methodNotAllowed(let allowed):
            outcome = Outcome(
                response: problem(.methodNotAllowed(allowed: allowed), for: request), route: nil)
        case .matched(let route, let parameters):
            outcome = run(route, parameters: parameters, request: request, admitted: admitted)
        }
        outcome.response.headers.set("X-Request-Id", request.requestID)
        return outcome
    }

    /// The verdict on a request's head, before any of its body is read: the caller, or the outcome that ends the
    /// request: no route or method, a malformed path, missing or bad credentials, a missing scope, or a credential
    /// store that failed (503 when the database is busy or unreachable). So only a caller the route admits ever
    /// makes the server hold a body.
    public func admit(_ head: HTTPRequest) -> Admission {
        guard case .matched(let route, _) = router.resolve(method: head.method, path: head.path) else {
            return .refused(dispatch(head))
        }
        do {
            return .admitted(try authenticate(head, requirement: route.auth))
        } catch {
            var outcome = failure(error, route: route.pattern.template, request: head, principal: nil)
            outcome.response.headers.set("X-Request-Id", head.requestID)
            return .refused(outcome)
        }
    }

    private func run(
        _ route: Route, parameters: [String: String], request: HTTPRequest, admitted: Principal??
    ) -> Outcome {
        let name = route.pattern.template
        var principal: Principal?
        do {
            principal = try admitted ?? authenticate(request, requirement: route.auth)
            let match = RouteMatch(route: name, parameters: parameters, principal: principal)
            return Outcome(response: try route.handler(request, match), route: name, principal: principal)
        } catch {
            return failure(error, route: name, request: request, principal: principal)
        }
    }

    /// The outcome of `error` thrown while authenticating or handling `request` on `route`: its own problem for an
    /// `HTTPError`, the dependency's problem for a failure of something the handlers depend on, else an opaque 500;
    /// the last two are logged.
    private func failure(
        _ error: any Error, route name: String, request: HTTPRequest, principal: Principal?
    )
        -> Outcome
    {
        if let error = error as? HTTPError {
            return Outcome(response: problem(error, for: request), route: name, principal: principal)
        }
        if let dependency = dependencyProblem(error) {
            logger.warning(
                "dependency unavailable",
                [
                    "request.id": .string(request.requestID), "http.route": .string(name),
                    "error.message": .string(String(describing: error)),
                ])
            return Outcome(response: problem(dependency, for: request), route: name, principal: principal)
        }
        logger.error(
            "request failed",
            [
                "request.id": .string(request.requestID), "http.route": .string(name),
                "http.method": .string(request.method.rawValue),
                "error.type": .string("\(type(of: error))"),
                "error.message": .string(String(describing: error)),
            ])
        return Outcome(response: problem(.internalError, for: request), route: name, principal: principal)
    }

    /// Checks the bearer key against the requirement: 401 for a missing, malformed or unknown key, 403 for a
    /// missing scope.
    private func authenticate(
        _ request: HTTPRequest, requirement: AuthRequirement
    ) throws
        -> Principal?
    {
        if case .public = requirement { return nil }
        guard let authorization = request.headers["authorization"] else {
            throw HTTPError.unauthorized("This route requires an API key: Authorization: Bearer <key>.")
        }
        guard let token = BearerCredentials.token(fromAuthorization: authorization) else {
            throw HTTPError.unauthorized("The Authorization header must be Bearer <key>.")
        }
        if ClientToken.looksLikeClientToken(token) {
            guard let clientTokens else { throw HTTPError.unauthorized("Client tokens are not accepted here.") }
            return try clientTokens.principal(for: token, requirement: requirement)
        }
        let principal = try apiKeyPrincipal(SHA256.hex(token), address: request.remoteAddress)
        if case .scope(let scope) = requirement, !principal.allows(scope) {
            throw HTTPError.forbidden(missing: scope)
        }
        if case .clientUser = requirement {
            throw HTTPError(
                status: .forbidden, type: "forbidden",
                detail: "This route acts for one user and takes a client token, not an API key.")
        }
        return principal
    }

    /// The principal of an API key. An address over its failed-authentication limit gets 429 unless the key is one
    /// the authenticator has seen valid, and every unknown key counts against its address. (A client token costs no lookup to
    /// refuse, so client tokens are not limited.)
    private func apiKeyPrincipal(_ keyHash: String, address: String?) throws -> Principal {
        guard let authFailures, let address else {
            guard let principal = try authenticator.principal(forKeyHash: keyHash) else { throw Self.unknownKey }
            return principal
        }
        let now = ContinuousClock.now
        if let wait = authFailures.retryAfter(address: address, at: now) {
            if let principal = try authenticator.knownPrincipal(forKeyHash: keyHash) { return principal }
            throw HTTPError(
                status: .tooManyRequests, type: "too-many-failed-authentications",
                detail: "Too many unknown API keys came from this address; retry later.",
                headers: ["Retry-After": String(wait)])
        }
        guard let principal = try authenticator.principal(forKeyHash: keyHash) else {
            authFailures.recordFailure(address: address, at: now)
            throw Self.unknownKey
        }
        return principal
    }

    private static let unknownKey = HTTPError.unauthorized("The API key is unknown or revoked.")

    private func problem(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        HTTPResponse.problem(error, instance: request.path, requestID: request.requestID)
    }
}
