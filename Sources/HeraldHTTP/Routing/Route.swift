/// Handles one request; runs on an HTTP worker thread and may block (database calls through a blocking pool API).
/// A thrown `HTTPError` becomes its problem document; any other error becomes a 500 and a log line.
public typealias HTTPHandler = @Sendable (HTTPRequest, RouteMatch) throws -> HTTPResponse

/// One entry of the route table.
public struct Route: Sendable {
    /// The method it answers.
    public let method: HTTPMethod
    /// The path template.
    public let pattern: RoutePattern
    /// What the caller must present.
    public let auth: AuthRequirement
    /// The handler.
    public let handler: HTTPHandler
    /// The largest body this route accepts, in place of the server-wide limit; nil uses the server's limit.
    public let maxBodyBytes: Int?

    /// Creates a route; `maxBodyBytes` overrides the server's body limit for this route alone.
    public init(
        _ method: HTTPMethod, _ template: String, auth: AuthRequirement, maxBodyBytes: Int? = nil,
        handler: @escaping HTTPHandler
    ) {
        self.method = method
        self.pattern = RoutePattern(template)
        self.auth = auth
        self.maxBodyBytes = maxBodyBytes
        self.handler = handler
    }
}
