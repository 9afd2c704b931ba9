import HeraldCore

/// Looks up API keys by the SHA-256 hex of their secret; the service backs it with its key store.
public protocol Authenticator: Sendable {
    /// The principal of the key whose secret hashes to `keyHash`, or nil for an unknown or revoked key. It runs on an
    /// HTTP worker thread and may block.
    func principal(forKeyHash keyHash: String) throws -> Principal?

    /// The principal of a key this authenticator has seen valid before, checked again when its answer is old; nil,
    /// with no lookup, for a key it has not seen valid. A client address over its failed-authentication limit still
    /// gets in with such a key, while made-up keys from it cost nothing.
    func knownPrincipal(forKeyHash keyHash: String) throws -> Principal?
}

extension Authenticator {
    /// Knows no key by default.
    public func knownPrincipal(forKeyHash keyHash: String) throws -> Principal? { nil }
}

/// An authenticator over a fixed table of key hashes, for tests and single-key setups.
public struct StaticAuthenticator: Authenticator {
    /// Principals by the SHA-256 hex of their secret.
    public var principals: [String: Principal]

    /// Creates an authenticator from principals keyed by secret hash.
    public init(principals: [String: Principal]) {
        self.principals = principals
    }

    /// Creates an authenticator from plain secrets, hashing them here.
    public init(secrets: [String: Principal]) {
        self.principals = Dictionary(
            uniqueKeysWithValues: secrets.map { (SHA256.hex($0.key), $0.value) })
    }

    /// The principal for a hash, if listed.
    public func principal(forKeyHash keyHash: String) throws -> Principal? {
        principals[keyHash]
    }

    /// The table is memory: every listed key is known.
    public func knownPrincipal(forKeyHash keyHash: String) throws -> Principal? {
        principals[keyHash]
    }
}
