import Foundation

/// How the dispatcher checks client tokens: the signer, the clock their expiry is compared with, and the user
/// records they must belong to.
public struct ClientTokenAuthentication: Sendable {
    /// Verifies the tokens.
    public let signer: ClientTokenSigner
    /// The wall clock; tests may pass another.
    public let clock: @Sendable () -> Date
    /// When the user with this id was created, or nil when no such user exists (deleted, or never created).
    public let userCreatedAt: @Sendable (String) throws -> Date?

    /// Creates the check.
    public init(
        signer: ClientTokenSigner, clock: @escaping @Sendable () -> Date = { Date() },
        userCreatedAt: @escaping @Sendable (String) throws -> Date?
    ) {
        self.signer = signer
        self.clock = clock
        self.userCreatedAt = userCreatedAt
    }

    /// The principal of a client token: 401 when it is malformed, tampered with, unknown or expired, or its user
    /// was deleted since it was minted (a user created again under the same id does not revive it); 403 when the
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
            guard let createdAt = try userCreatedAt(claims.userID), claims.isFor(userCreatedAt: createdAt) else {
                throw HTTPError.unauthorized(
                    "The user of this client token was deleted; ask the app's backend for a new one.")
            }
            return Principal(keyID: "client:" + claims.keyID, scopes: [], clientUserID: claims.userID)
        }
    }
}
