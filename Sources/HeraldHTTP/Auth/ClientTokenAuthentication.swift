import Foundation

/// How the dispatcher checks client tokens: the signer and the clock their expiry is compared with.
public struct ClientTokenAuthentication: Sendable {
    /// Verifies the tokens.
    public let signer: ClientTokenSigner
    /// The wall clock; tests may pass another.
    public let clock: @Sendable () -> Date

    /// Creates the check.
    public init(signer: ClientTokenSigner, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.signer = signer
        self.clock = clock
    }

    /// The principal of a client token: 401 when it is malformed, tampered with, unknown or expired; 403 when the
    /// route is not a client route.
    func principal(for token: String, requirement: AuthRequirement) throws -> Principal {
        switch signer.verify(token, now: clock()) {
        case .invalid:
            throw HTTPError.unauthorized("The client token is malformed, tampered with or signed by an unknown key.")
        case .expired:
            throw HTTPError.unauthorized("The client token has expired; ask the app's backend for a new one.")
        case .valid(let claims):
            guard case .clientUser = requirement else {
                throw HTTPError(
                    status: .forbidden, type: "forbidden",
                    detail: "A client token may call only the /v1/me routes of its user.")
            }
            return Principal(keyID: "client:" + claims.keyID, scopes: [], clientUserID: claims.userID)
        }
    }
}
