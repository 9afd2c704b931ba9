import Foundation

/// What a verified client token says: which user it acts for, until when, and which key signed it.
public struct ClientToken: Sendable, Hashable {
    /// The prefix of every client token, so it is told apart from an API key (`hk_`) before any lookup.
    public static let prefix = "hct1"

    /// The user the token acts for.
    public var userID: String
    /// When the token stops being accepted, in whole seconds.
    public var expiresAt: Date
    /// The id of the key that signed it.
    public var keyID: String

    /// Creates the claims of a token.
    public init(userID: String, expiresAt: Date, keyID: String) {
        self.userID = userID
        self.expiresAt = expiresAt
        self.keyID = keyID
    }

    /// Whether a bearer token has the client token shape; API keys never do.
    public static func looksLikeClientToken(_ token: String) -> Bool {
        token.hasPrefix(prefix + ".")
    }
}
