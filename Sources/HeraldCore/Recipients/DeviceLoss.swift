/// Why an installation stopped receiving a user's pushes, as the record of its loss says: the cause, and the reason
/// a person reads. Every loss is recorded, whichever path caused it.
public enum DeviceLoss: String, Sendable, Hashable, CaseIterable {
    /// A push service reported the token dead; the report brings its own reason.
    case feedback
    /// The app signed the installation out, or the backend removed it.
    case signedOut = "signed_out"
    /// Another installation registered the same push token (a reinstall, a restored backup, a new account on the
    /// same phone).
    case tokenMoved = "token_moved"
    /// The installation was registered again for another user.
    case userChanged = "user_changed"

    /// The reason recorded with the loss; a push service's report (`feedback`) brings its own.
    public var reason: String? {
        switch self {
        case .feedback: nil
        case .signedOut: "signed out"
        case .tokenMoved: "token registered by another installation"
        case .userChanged: "installation registered by another user"
        }
    }
}
