/// The authenticated caller: an API key's id and its scopes, or a client token acting for one user.
public struct Principal: Sendable, Hashable {
    /// The API key's id (never the secret); for a client token, `client:<signing key id>`.
    public var keyID: String
    /// The scopes granted to the key; a client token has none.
    public var scopes: Set<Scope>
    /// The user a client token acts for; nil for an API key.
    public var clientUserID: String?

    /// Creates a principal.
    public init(keyID: String, scopes: Set<Scope>, clientUserID: String? = nil) {
        self.keyID = keyID
        self.scopes = scopes
        self.clientUserID = clientUserID
    }

    /// Whether the key may act with `scope`; `admin` grants every scope.
    public func allows(_ scope: Scope) -> Bool {
        scopes.contains(scope) || scopes.contains(.admin)
    }
}
