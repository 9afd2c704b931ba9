/// The route table: method plus path template to handler, with its auth requirement.
public struct Router: Sendable {
    /// The outcome of looking up a method and path.
    public enum Resolution: Sendable {
        /// A route answers; parameters are decoded.
        case matched(Route, parameters: [String: String])
        /// The path exists, but not for this method; the methods that do exist, for `Allow`.
        case methodNotAllowed(allowed: [HTTPMethod])
        /// No route has this path.
        case notFound
        /// The path has a malformed percent escape or is not UTF-8.
        case malformedPath
    }

    /// Routes in the order they were added.
    public private(set) var routes: [Route] = []

    /// Creates an empty table.
    public init() {}

    /// Adds a route; registering the same method and template twice is a programming error.
    public mutating func add(_ route: Route) {
        precondition(
            !routes.contains { $0.method == route.method && $0.pattern == route.pattern },
            "duplicate route \(route.method) \(route.pattern)")
        routes.append(route)
    }

    /// Adds a route for `method` and `template`; `maxBodyBytes` overrides the server's body limit for it.
    public mutating func add(
        _ method: HTTPMethod, _ template: String, auth: AuthRequirement, maxBodyBytes: Int? = nil,
        handler: @escaping HTTPHandler
    ) {
        add(Route(method, template, auth: auth, maxBodyBytes: maxBodyBytes, handler: handler))
    }

    /// Adds a GET route (HEAD is answered by it too). It takes no body: a request that declares or sends one is
    /// answered 413 before the server holds any of it, whoever sends it.
    public mutating func get(
        _ template: String, auth: AuthRequirement, handler: @escaping HTTPHandler
    ) {
        add(.get, template, auth: auth, maxBodyBytes: 0, handler: handler)
    }

    /// Adds a POST route; `maxBodyBytes` overrides the server's body limit for it.
    public mutating func post(
        _ template: String, auth: AuthRequirement, maxBodyBytes: Int? = nil, handler: @escaping HTTPHandler
    ) {
        add(.post, template, auth: auth, maxBodyBytes: maxBodyBytes, handler: handler)
    }

    /// Adds a PUT route.
    public mutating func put(
        _ template: String, auth: AuthRequirement, handler: @escaping HTTPHandler
    ) {
        add(.put, template, auth: auth, handler: handler)
    }

    /// Adds a PATCH route.
    public mutating func patch(
        _ template: String, auth: AuthRequirement, handler: @escaping HTTPHandler
    ) {
        add(.patch, template, auth: auth, handler: handler)
    }

    /// Adds a DELETE route.
    public mutating func delete(
        _ template: String, auth: AuthRequirement, handler: @escaping HTTPHandler
    ) {
        add(.delete, template, auth: auth, handler: handler)
    }

    /// Finds the route for a method and a raw (percent-encoded) path; where templates overlap the most specific
    /// wins, and HEAD falls back to GET.
    public func resolve(method: HTTPMethod, path: String) -> Resolution {
        guard let segments = Self.decodedSegments(of: path) else { return .malformedPath }
        var allowed: [HTTPMethod] = []
        var best: (route: Route, parameters: [String: String])?
        var headFallback: (route: Route, parameters: [String: String])?
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
            if !allowed.contains(route.method) {
                allowed.append(route.method)
            }
            if route.method == method {
                if best.map({ route.pattern.isMoreSpecific(than: $0.route.pattern) }) ?? true {
                    best = (route, parameters)
                }
            } else if method == .head, route.method == .get {
                if headFallback.map({ route.pattern.isMoreSpecific(than: $0.route.pattern) }) ?? true {
                    headFallback = (route, parameters)
                }
            }
        }
        if let match = best ?? headFallback {
            return .matched(match.route, parameters: match.parameters)
        }
        guard !allowed.isEmpty else { return .notFound }
        if allowed.contains(.get), !allowed.contains(.head) {
            allowed.append(.head)
        }
        return .methodNotAllowed(allowed: allowed.sorted { $0.rawValue < $1.rawValue })
    }

    /// The body limit of the route that would answer `method` and `path`, when that route sets its own.
    public func bodyLimit(method: HTTPMethod, path: String) -> Int? {
        guard case .matched(let route, _) = resolve(method: method, path: path) else { return nil }
        return route.maxBodyBytes
    }

    /// Splits a path into percent-decoded segments; a decoded `/` stays inside its segment.
    static func decodedSegments(of path: String) -> [String]? {
        guard path.hasPrefix("/") else { return nil }
        var segments: [String] = []
        for raw in path.utf8.dropFirst().split(
            separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        {
            guard let decoded = PercentDecoding.decode(Substring(raw)) else { return nil }
            segments.append(decoded)
        }
        return segments
    }
}
