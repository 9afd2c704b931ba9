import HeraldHTTP
import Testing

@Suite struct RouterTests {
    let router = sampleRouter()

    @Test(arguments: [
        ("GET", "/health", "/health", [String: String]()),
        ("GET", "/v1/categories/welcome", "/v1/categories/{id}", ["id": "welcome"]),
        ("GET", "/v1/categories/a%2Fb", "/v1/categories/{id}", ["id": "a/b"]),
        ("GET", "/v1/categories/caf%C3%A9", "/v1/categories/{id}", ["id": "café"]),
        (
            "GET", "/v1/categories/x/templates/pt-BR", "/v1/categories/{id}/templates/{locale}",
            ["id": "x", "locale": "pt-BR"]
        ),
        (
            "PUT", "/v1/categories/x/templates/de", "/v1/categories/{id}/templates/{locale}",
            ["id": "x", "locale": "de"]
        ),
        ("POST", "/v1/users:import", "/v1/users:import", [:]),
        ("POST", "/v1/users%3Aimport", "/v1/users:import", [:]),
        ("GET", "/v1/users/42", "/v1/users/{id}", ["id": "42"]),
        ("POST", "/v1/campaigns/c1:cancel", "/v1/campaigns/{id}:cancel", ["id": "c1"]),
        ("GET", "/v1/campaigns/c1:cancel", "/v1/campaigns/{id}", ["id": "c1:cancel"]),
        ("HEAD", "/v1/users/7", "/v1/users/{id}", ["id": "7"]),
    ])
    func matches(method: String, path: String, template: String, parameters: [String: String]) {
        guard
            case .matched(let route, let found) = router.resolve(
                method: HTTPMethod(rawValue: method), path: path)
        else {
            Issue.record("\(method) \(path) did not match")
            return
        }
        #expect(route.pattern.template == template)
        #expect(found == parameters)
    }

    @Test(arguments: [
        "/nope", "/v1/categories", "/v1/categories/", "/v1/categories/x/templates", "/v1//x",
        "/v1/users:export",
        "/health/", "/v1/campaigns/x/y", "",
    ])
    func unknownPathsAreNotFound(path: String) {
        let resolution = router.resolve(method: .get, path: path)
        switch resolution {
        case .notFound, .malformedPath: break
        default: Issue.record("\(path) resolved to \(resolution)")
        }
    }

    @Test(arguments: [
        ("POST", "/health", ["GET", "HEAD"]),
        ("PATCH", "/v1/categories/x", ["DELETE", "GET", "HEAD"]),
        ("GET", "/v1/users:import", ["POST"]),
        ("DELETE", "/v1/categories/x/templates/en", ["GET", "HEAD", "PUT"]),
        ("BREW", "/v1/users/1", ["GET", "HEAD"]),
    ])
    func wrongMethodListsAllowedMethods(method: String, path: String, allowed: [String]) {
        guard
            case .methodNotAllowed(let methods) = router.resolve(
                method: HTTPMethod(rawValue: method), path: path)
        else {
            Issue.record("\(method) \(path) was not 405")
            return
        }
        #expect(methods.map(\.rawValue) == allowed)
    }

    @Test(arguments: ["/v1/users/%zz", "/v1/users/%C3", "/v1/users/%"])
    func malformedEscapesAreReported(path: String) {
        guard case .malformedPath = router.resolve(method: .get, path: path) else {
            Issue.record("\(path) was accepted")
            return
        }
    }

    @Test func patternExposesParameterNames() {
        #expect(
            RoutePattern("/v1/categories/{id}/templates/{locale}").parameterNames == ["id", "locale"])
        #expect(RoutePattern("/v1/campaigns/{id}:cancel").parameterNames == ["id"])
    }

    @Test func literalBeatsParameterRegardlessOfOrder() {
        var router = Router()
        router.get("/v1/things/{id}", auth: .public) { _, _ in .text("param") }
        router.get("/v1/things/special", auth: .public) { _, _ in .text("literal") }
        guard case .matched(let route, _) = router.resolve(method: .get, path: "/v1/things/special")
        else {
            Issue.record("no match")
            return
        }
        #expect(route.pattern.template == "/v1/things/special")
    }

    /// A GET takes no body (nor a HEAD, which it answers); other methods keep the server's limit unless they set
    /// their own.
    @Test func aGetRouteTakesNoBody() {
        var router = Router()
        router.get("/health", auth: .public) { _, _ in .text("ok") }
        router.post("/v1/things", auth: .public) { _, _ in .text("ok") }
        router.post("/v1/things:import", auth: .public, maxBodyBytes: 4_096) { _, _ in .text("ok") }
        #expect(router.bodyLimit(method: .get, path: "/health") == 0)
        #expect(router.bodyLimit(method: .head, path: "/health") == 0)
        #expect(router.bodyLimit(method: .post, path: "/v1/things") == nil)
        #expect(router.bodyLimit(method: .post, path: "/v1/things:import") == 4_096)
    }
}
