import Foundation

/// Mints and verifies client tokens with HMAC-SHA256: `hct1.<kid>.<base64url user id>.<expiry>.<base64url mac>`,
/// the MAC covering everything before its dot. The first key signs; every key verifies, so a secret rotates by
/// putting the new key first and dropping the old one once its tokens have expired.
public struct ClientTokenSigner: Sendable {
    /// The configured keys; the first one signs.
    public let keys: [ClientTokenKey]

    /// A signer over `keys`; nil when there is none.
    public init?(keys: [ClientTokenKey]) {
        guard !keys.isEmpty else { return nil }
        self.keys = keys
    }

    /// A token for `userID` that expires at `expiresAt` (truncated to whole seconds), signed by the first key.
    public func mint(userID: String, expiresAt: Date) -> String {
        let key = keys[0]
        let seconds = Int64(expiresAt.timeIntervalSince1970.rounded(.down))
        let signed = [ClientToken.prefix, key.id, Base64URL.encode(Array(userID.utf8)), String(seconds)]
            .joined(separator: ".")
        return signed + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: Array(signed.utf8), key: key.secret))
    }

    /// Checks the signature first (constant-time), then the expiry against `now`: only a genuine token learns that
    /// it expired.
    public func verify(_ token: String, now: Date) -> ClientTokenVerdict {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == ClientToken.prefix,
            let key = keys.first(where: { $0.id == parts[1] }),
            let mac = Base64URL.decode(String(parts[4])),
            let userBytes = Base64URL.decode(String(parts[2])),
            let seconds = Int64(parts[3]), seconds > 0,
            // Only the canonical spelling is accepted: base64 leaves spare low bits in its last character, and a
            // token must have exactly one valid form.
            Base64URL.encode(mac) == parts[4], Base64URL.encode(userBytes) == parts[2], String(seconds) == parts[3]
        else { return .invalid }
        let signedLength = parts[0...3].reduce(3) { $0 + $1.utf8.count }
        let signed = Array(token.utf8.prefix(signedLength))
        guard HMACSHA256.isValid(mac, for: signed, key: key.secret),
            let userID = String(validating: userBytes, as: UTF8.self), !userID.isEmpty
        else { return .invalid }
        let expiresAt = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard now < expiresAt else { return .expired }
        return .valid(ClientToken(userID: userID, expiresAt: expiresAt, keyID: key.id))
    }
}
