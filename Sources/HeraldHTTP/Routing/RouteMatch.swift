/// What a handler learns from routing and authentication besides the request itself.
public struct RouteMatch: Sendable {
    /// The matched template, e.g. `/v1/categories/{id}`; the route's name in metrics and logs.
    public var route: String
    /// Decoded path parameters by name.
    public var parameters: [String: String]
    /// The authenticated caller; nil on public routes.
    public var principal: Principal?

    /// Creates a match.
    public init(route: String, parameters: [String: String] = [:], principal: Principal? = nil) {
        self.route = route
        self.parameters = parameters
        self.principal = principal
    }

    /// A path parameter by name.
    public subscript(name: String) -> String? {
        parameters[name]
    }

    /// A path parameter that the template guarantees; a missing one is a route table mistake, reported as 500.
    public func parameter(_ name: String) throws -> String {
        guard let value = parameters[name] else { throw MissingRouteParameter(name: name) }
        return value
    }
}

/// A handler asked for a parameter its route template does not declare.
public struct MissingRouteParameter: Error, Sendable, CustomStringConvertible {
    /// The parameter name.
    public let name: String

    /// The name of the missing parameter.
    public var description: String { "route has no parameter \(name)" }
}
