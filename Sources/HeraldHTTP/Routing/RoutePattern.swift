/// A path template such as `/v1/categories/{id}/templates/{locale}` or `/v1/users:import`.
///
/// A segment is a literal, or a `{name}` parameter with an optional literal prefix and suffix
/// (`{id}:cancel`). Parameters match one non-empty segment and are percent-decoded.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(name: String, prefix: String, suffix: String)
    }

    /// The template as written; it names the route in metrics and logs.
    public let template: String
    let segments: [Segment]

    /// Parses a template; a malformed template is a programming error caught at start-up.
    public init(_ template: String) {
        precondition(template.hasPrefix("/"), "route template must start with /: \(template)")
        self.template = template
        self.segments = template.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { part in
            guard let open = part.firstIndex(of: "{") else {
                precondition(!part.contains("}"), "unbalanced brace in route template \(template)")
                return .literal(String(part))
            }
            guard let close = part.firstIndex(of: "}"), close > part.index(after: open) else {
                preconditionFailure("malformed parameter in route template \(template)")
            }
            let suffix = part[part.index(after: close)...]
            precondition(
                !suffix.contains("{") && !suffix.contains("}"), "one parameter per segment: \(template)")
            return .parameter(
                name: String(part[part.index(after: open)..<close]), prefix: String(part[..<open]),
                suffix: String(suffix))
        }
    }

    /// The template.
    public var description: String { template }

    /// Parameter names, in order.
    public var parameterNames: [String] {
        segments.compactMap {
            if case .parameter(let name, _, _) = $0 { return name }
            return nil
        }
    }

    /// The parameters when the decoded path segments match, else nil.
    func match(_ pathSegments: [String]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, actual) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal):
                guard actual == literal else { return nil }
            case .parameter(let name, let prefix, let suffix):
                guard actual.utf8.count > prefix.utf8.count + suffix.utf8.count, actual.hasPrefix(prefix),
                    actual.hasSuffix(suffix)
                else { return nil }
                let value = actual.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
                parameters[name] = String(decoding: value, as: UTF8.self)
            }
        }
        return parameters
    }

    /// Orders templates with the same number of segments: segment by segment, a literal beats a parameter with
    /// affixes (longer affixes first), which beats a bare parameter.
    func isMoreSpecific(than other: RoutePattern) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) {
            let (a, b) = (Self.rank(mine), Self.rank(theirs))
            if a != b { return a > b }
        }
        return false
    }

    private static func rank(_ segment: Segment) -> Int {
        switch segment {
        case .literal: 1_000_000
        case .parameter(_, let prefix, let suffix): prefix.utf8.count + suffix.utf8.count
        }
    }
}
