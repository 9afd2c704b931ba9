import Foundation
import HeraldCore

/// Mints and verifies client tokens with HMAC-SHA256:
/// `hct2.<kid>.<base64url user id>.<issued, ms>.<expiry, s>.<base64url mac>`, the MAC covering everything before
/// its dot.
/// The first key signs; every key verifies, so a secret rotates by putting the new key first and dropping the old
/// one once its tokens have expired. Tokens of the earlier form, `hct1.<kid>.<user>.<expiry>.<mac>`, still verify;
/// their issue time is taken as the earliest they can have been minted.
public struct ClientTokenSigner: Sendable {
    /// The configured keys; the first one signs.
    public let keys: [ClientTokenKey]

    /// A signer over `keys`; nil when there is none.
    public init?(keys: [ClientTokenKey]) {
        guard !keys.isEmpty else { return nil }
        self.keys = keys
    }

    /// A token for `userID` minted at `issuedAt` (truncated to whole milliseconds) that expires at `expiresAt`
    /// (truncated to whole seconds), signed by the first key.
    public func mint(userID: String, issuedAt: Date, expiresAt: Date) -> String {
        let key = keys[0]
        let signed = [
            ClientToken.prefix, key.id, Base64URL.encode(Array(userID.utf8)),
            String(ClientToken.milliseconds(issuedAt)),
            String(Self.seconds(expiresAt)),
        ].joined(separator: ".")
        return signed + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: Array(signed.utf8), key: key.secret))
    }

    /// Checks the signature first (constant-time), then the expiry against `now`: only a genuine token learns that
    /// it expired.
    public func verify(_ token: String, now: Date) -> ClientTokenVerdict {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let legacy = parts.first == ClientToken.legacyPrefix
        guard parts.count == (legacy ? 5 : 6), legacy || parts[0] == ClientToken.prefix,
            let key = keys.first(where: { $0.id == parts[1] }),
            let mac = Base64URL.decode(parts[parts.count - 1]),
            let userBytes = Base64URL.decode(parts[2]),
            let times = Self.canonicalSeconds(parts[3..<(parts.count - 1)]),
            // Only the canonical spelling is accepted: base64 leaves spare low bits in its last character, and a
            // token must have exactly one valid form.
            Base64URL.encode(mac) == parts[parts.count - 1], Base64URL.encode(userBytes) == parts[2]
        else { return .invalid }
        let signedLength = parts.dropLast().reduce(parts.count - 2) { $0 + $1.utf8.count }
        let signed = Array(token.utf8.prefix(signedLength))
        guard HMACSHA256.isValid(mac, for: signed, key: key.secret),
            let userID = String(validating: userBytes, as: UTF8.self), !userID.isEmpty
        else { return .invalid }
        let expiry = times[times.count - 1]
        let issuedMilliseconds = legacy ? (expiry - Int64(ClientToken.longestLifetimeSeconds)) * 1_000 : times[0]
        guard issuedMilliseconds <= expiry * 1_000 else { return .invalid }
        let expiresAt = Date(timeIntervalSince1970: TimeInterval(expiry))
        guard now < expiresAt else { return .expired }
        let issuedAt = Date(timeIntervalSince1970: TimeInterval(issuedMilliseconds) / 1_000)
        return .valid(ClientToken(userID: userID, issuedAt: issuedAt, expiresAt: expiresAt, keyID: key.id))
    }

    private static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// Positive whole seconds, each in its one canonical spelling; nil otherwise.
    private static func canonicalSeconds(_ texts: ArraySlice<String>) -> [Int64]? {
        var values: [Int64] = []
        for text in texts {
            guard let value = Int64(text), value > 0, String(value) == text else { return nil }
            values.append(value)
        }
        return values
    }
}
