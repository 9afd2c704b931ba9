/// What a route demands of the caller before its handler runs.
public enum AuthRequirement: Sendable, Hashable {
    /// No credentials needed (health, readiness, metrics).
    case `public`
    /// Any valid API key.
    case anyKey
    /// A valid API key holding this scope (or `admin`).
    case scope(Scope)
    /// A valid client token; the handler acts for the token's user only (the `/v1/me` routes).
    case clientUser
}
