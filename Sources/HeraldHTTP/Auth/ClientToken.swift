import Foundation

/// What a verified client token says: which user it acts for, since and until when, and which key signed it.
public struct ClientToken: Sendable, Hashable {
    /// The prefix of every client token minted now, so it is told apart from an API key (`hk_`) before any lookup.
    public static let prefix = "hct2"
    /// The prefix of tokens minted before they carried their issue time; still verified until they expire.
    public static let legacyPrefix = "hct1"
    /// The longest lifetime a token may be minted with, in seconds.
    public static let longestLifetimeSeconds = 86_400

    /// The user the token acts for.
    public var userID: String
    /// When the token was minted, in whole milliseconds. For a legacy token, the earliest it can have been minted.
    public var issuedAt: Date
    /// When the token stops being accepted, in whole seconds.
    public var expiresAt: Date
    /// The id of the key that signed it.
    public var keyID: String

    /// Creates the claims of a token.
    public init(userID: String, issuedAt: Date, expiresAt: Date, keyID: String) {
        self.userID = userID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.keyID = keyID
    }

    /// Whether a bearer token has the client token shape; API keys never do.
    public static func looksLikeClientToken(_ token: String) -> Bool {
        token.hasPrefix(prefix + ".") || token.hasPrefix(legacyPrefix + ".")
    }

    /// Whether the token belongs to the user record that began at `userCreatedAt`: one minted before it was for an
    /// earlier user of the same id, since deleted. Compared in whole milliseconds, the token's precision.
    public func isFor(userCreatedAt: Date) -> Bool {
        ClientToken.milliseconds(issuedAt) >= ClientToken.milliseconds(userCreatedAt)
    }

    /// Whole milliseconds since 1970, rounded down.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000).rounded(.down))
    }
}
