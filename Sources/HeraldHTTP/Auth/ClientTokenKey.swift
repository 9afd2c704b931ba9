import HeraldCore

/// One signing secret for client tokens, named by a key id so the secret can rotate while older tokens still verify.
public struct ClientTokenKey: Sendable, Equatable, CustomStringConvertible {
    /// The shortest secret accepted, in bytes: HMAC-SHA256 keys shorter than the hash add no strength.
    public static let minimumSecretBytes = 32
    /// The longest key id: letters, digits, `-` and `_`.
    public static let maximumKeyIDLength = 32

    /// The key id carried in every token it signs.
    public let id: String
    /// The secret bytes.
    let secret: [UInt8]

    /// A key, or nil when the id is not 1 to 32 of `A-Z a-z 0-9 - _` or the secret is shorter than 32 bytes.
    public init?(id: String, secret: [UInt8]) {
        guard Self.isKeyID(id), secret.count >= Self.minimumSecretBytes else { return nil }
        self.id = id
        self.secret = secret
    }

    /// Parses `kid:base64secret[,kid:base64secret…]` (standard base64 or base64url); nil when any entry is malformed
    /// or a key id repeats. The first key signs; all of them verify.
    public static func parseList(_ text: String) -> [ClientTokenKey]? {
        var keys: [ClientTokenKey] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = entry.trimmingSpaces().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            // Standard base64 is accepted too: operators often generate secrets with `openssl rand -base64 32`.
            guard let secret = Base64URL.decode(String(parts[1]), acceptingStandardAlphabet: true),
                let key = ClientTokenKey(id: String(parts[0]), secret: secret),
                !keys.contains(where: { $0.id == key.id })
            else { return nil }
            keys.append(key)
        }
        return keys.isEmpty ? nil : keys
    }

    /// A fresh key with 32 random bytes, written as `kid:base64url` by `listEntry`.
    public static func generate(id: String) -> ClientTokenKey? {
        ClientTokenKey(id: id, secret: SecureRandom.bytes(count: minimumSecretBytes))
    }

    /// The key as one entry of `HERALD_CLIENT_TOKEN_KEYS`; it contains the secret, so it belongs in a private file.
    public var listEntry: String {
        id + ":" + Base64URL.encode(secret)
    }

    /// Redacted: secrets must never reach logs through string interpolation.
    public var description: String {
        "ClientTokenKey(\(id), redacted)"
    }

    static func isKeyID(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumKeyIDLength
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }
}
