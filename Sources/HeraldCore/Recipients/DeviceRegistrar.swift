/// Who registers a device, and so what the registration may do to a user, an installation and a push token that
/// exist already. An app's backend (an API key) registers for any user; the app itself, for its signed-in user (a
/// client token), must never reach another user's devices.
public enum DeviceRegistrar: Sendable, Hashable {
    /// The app's backend: creates the user if needed, moves an installation of another user to this one (the move
    /// recorded), and takes the push token from whichever installation holds it.
    case backend
    /// The user's own app: the user must exist, and another user's installation or push token is refused.
    case user

    /// Why a registration is refused; a refused registration changes nothing.
    public enum Refusal: Error, Sendable, Hashable {
        /// The user does not exist (a client acting for a deleted user re-creates nothing).
        case unknownUser
        /// The installation belongs to another user.
        case installationOfAnotherUser
        /// The push token is held by another user's installation.
        case tokenOfAnotherUser
        /// The user already holds `Device.maxPerUser` other active devices.
        case tooManyDevices
    }

    /// Whether a registration for a user that does not exist creates the user.
    public var createsUsers: Bool { self == .backend }

    /// Whether the registration takes a push token from another user's installation. A user's app may not: one
    /// account's app could otherwise silence another's phone and receive its pushes.
    public var takesOtherUsersTokens: Bool { self == .backend }

    /// Whether the registration takes an installation registered to another user. When it may not, finding one
    /// refuses it with `installationOfAnotherUser`.
    public var movesInstallations: Bool { self == .backend }

    /// Whether a registration goes ahead, on the facts read while the user's row is held: whether the user exists
    /// (after it was created, for a registrar that creates users), whether another user's installation holds the
    /// push token (read only for a registrar that may not take it), and how many active devices the user holds
    /// besides this installation. Returns the refusal, or nil. Every registration counts against the cap however it
    /// is made, since every push to the user fans out to each device.
    public func refusal(userExists: Bool, tokenHeldByAnotherUser: Bool, otherActiveDevices: Int) -> Refusal? {
        guard userExists else { return .unknownUser }
        if tokenHeldByAnotherUser, !takesOtherUsersTokens { return .tokenOfAnotherUser }
        guard Device.capAllows(activeDevices: otherActiveDevices + 1) else { return .tooManyDevices }
        return nil
    }
}
