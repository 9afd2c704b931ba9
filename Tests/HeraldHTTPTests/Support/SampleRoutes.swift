import HeraldHTTP
import HeraldTestSupport

/// A body with nested members and an enum, as the service's own bodies look.
struct SampleBody: Codable, Equatable {
    struct QuietHours: Codable, Equatable {
        var start: String
        var end: String
        var weekdays: [Int]?
    }

    enum Mode: String, Codable {
        case defer_, silent, bypass
    }

    var userId: Int
    var quietHours: QuietHours?
    var mode: Mode?
    var tags: [String]?
}

struct SampleFailure: Error, CustomStringConvertible {
    var description: String { "database password=hunter2 leaked into an error" }
}

/// The route table the dispatcher and server tests share.
func sampleRouter(extra: (inout Router) -> Void = { _ in }) -> Router {
    var router = Router()
    router.get("/health", auth: .public) { _, _ in .text("ok") }
    router.post("/v1/echo", auth: .scope(.eventsWrite)) { request, _ in
        try .json(request.decodeJSON(SampleBody.self), status: .created)
    }
    router.get("/v1/categories/{id}", auth: .anyKey) { _, match in
        try .json([
            "id": match.parameter("id"), "route": match.route, "key": match.principal?.keyID ?? "",
        ])
    }
    router.delete("/v1/categories/{id}", auth: .scope(.categoriesWrite)) { _, _ in .noContent() }
    router.get("/v1/categories/{id}/templates/{locale}", auth: .anyKey) { _, match in
        try .json(match.parameters)
    }
    router.put("/v1/categories/{id}/templates/{locale}", auth: .scope(.categoriesWrite)) { _, match in
        try .json(match.parameters)
    }
    router.post("/v1/users:import", auth: .scope(.usersWrite)) { _, _ in
        .text("imported", status: .accepted)
    }
    router.get("/v1/users/{id}", auth: .anyKey) { _, match in .text("user " + (match["id"] ?? "")) }
    router.post("/v1/campaigns/{id}:cancel", auth: .scope(.campaignsWrite)) { _, match in
        .text("cancel " + (match["id"] ?? ""))
    }
    router.get("/v1/campaigns/{id}", auth: .anyKey) { _, match in
        .text("campaign " + (match["id"] ?? ""))
    }
    router.get("/boom", auth: .public) { _, _ in throw SampleFailure() }
    router.get("/teapot", auth: .public) { _, _ in
        throw HTTPError(
            status: 409, type: "already-exists", title: "Already exists", detail: "It is there.")
    }
    router.get("/whoami", auth: .public) { request, _ in
        try .json([
            "address": request.remoteAddress ?? "", "request_id": request.requestID,
            "q": request.query("q") ?? "",
        ])
    }
    extra(&router)
    return router
}

func sampleDispatcher(logs: LogCapture = LogCapture()) -> RequestDispatcher {
    RequestDispatcher(
        router: sampleRouter(), authenticator: TestKeys.authenticator, logger: logs.logger)
}
