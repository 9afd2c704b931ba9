import HeraldCore
import HeraldHTTP

/// The user a `/v1/me` request acts for: the one inside its client token, never one named by the request.
enum ClientUser {
    /// The token's user id; the route's auth requirement guarantees a client principal.
    static func id(_ match: RouteMatch) throws -> String {
        guard let userId = match.principal?.clientUserID, OpaqueIdentifier.isValid(userId) else {
            throw HTTPError.unauthorized("This route takes a client token.")
        }
        return userId
    }
}
