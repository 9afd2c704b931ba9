/// The authenticated caller: an API key's id and its scopes.
public struct Principal: Sendable, Hashable {
    /// The API key's id (never the secret).
    public var keyID: String
    /// The scopes granted to the key.
    public var scopes: Set<Scope>

    /// Creates a principal.
    public init(keyID: String, scopes: Set<Scope>) {
        self.keyID = keyID
        self.scopes = scopes
    }

    /// Whether the key may act with `scope`; `admin` grants every scope.
    public func allows(_ scope: Scope) -> Bool {
        scopes.contains(scope) || scopes.contains(.admin)
    }
}
