import HeraldHTTP

/// `/console`: the web console's page and files, public (the page asks for a key and sends it with every `/v1` call).
enum ConsoleRoutes {
    static func register(on router: inout Router, files: ConsoleFiles) {
        for template in ["/console", "/console/"] {
            router.get(template, auth: .public) { request, _ in
                try files.response(for: "index.html", ifNoneMatch: request.headers["if-none-match"])
            }
        }
        router.get("/console/{file}", auth: .public) { request, match in
            try files.response(for: match["file"] ?? "", ifNoneMatch: request.headers["if-none-match"])
        }
    }
}
