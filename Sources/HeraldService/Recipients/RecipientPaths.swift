import HeraldCore
import HeraldHTTP

/// Identifiers taken from request paths. A malformed id in a write is a 400 (the client cannot name a user that
/// way); in a read or delete it is a 404, since nothing can exist under it.
enum RecipientPaths {
    /// The path parameter `name` as a user or installation id.
    static func identifier(_ match: RouteMatch, _ name: String, write: Bool) throws -> String {
        try checked(match, name, maxLength: OpaqueIdentifier.maxIdentifierLength, write: write)
    }

    /// The path parameter `name` as a topic.
    static func topic(_ match: RouteMatch, _ name: String, write: Bool) throws -> String {
        try checked(match, name, maxLength: OpaqueIdentifier.maxTopicLength, write: write)
    }

    private static func checked(_ match: RouteMatch, _ name: String, maxLength: Int, write: Bool) throws -> String {
        let value = try match.parameter(name)
        guard OpaqueIdentifier.isValid(value, maxLength: maxLength) else {
            if write {
                throw HTTPError.badRequest(
                    "The path parameter \(name) \(OpaqueIdentifier.rule(maxLength: maxLength)).", type: "invalid-path")
            }
            throw HTTPError.notFound("Nothing can exist under this \(name).")
        }
        return value
    }
}

extension Result where Failure == ValidationFailure {
    /// The value, or a 422 naming every offending member.
    func orUnprocessable() throws -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let failure): throw HTTPError.invalidFields(failure.errors)
        }
    }
}
