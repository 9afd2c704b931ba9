import HeraldCore

/// The secret of an API key, shown to its owner once; only its SHA-256 hash is stored.
public struct APIKeySecret: Sendable, Hashable, CustomStringConvertible {
    /// The prefix every generated key starts with, so leaked keys are easy to recognise and scan for.
    public static let prefix = "hk_"

    /// The full secret, for example `hk_Xf3…`.
    public let value: String

    /// Wraps an existing secret, such as one supplied through the environment.
    public init(_ value: String) {
        self.value = value
    }

    /// Generates a new secret: `hk_` plus 32 base64url characters (24 random bytes, 192 bits). An id given here is
    /// embedded as `hk_<id>_<random>` so a key can be recognised in a key list without revealing it.
    public static func generate(embedding keyID: String? = nil) -> APIKeySecret {
        let random = Base64URL.encode(SecureRandom.bytes(count: 24))
        guard let keyID, !keyID.isEmpty else { return APIKeySecret(prefix + random) }
        return APIKeySecret(prefix + keyID + "_" + random)
    }

    /// The lowercase hex SHA-256 of the secret, the form the key store keeps.
    public var hash: String {
        SHA256.hex(value)
    }

    /// Redacted: secrets must never reach logs through string interpolation.
    public var description: String {
        "APIKeySecret(redacted)"
    }
}
