/// The outcome of checking a client token.
public enum ClientTokenVerdict: Sendable, Hashable {
    /// Signed by a configured key and not expired.
    case valid(ClientToken)
    /// Well signed, but past its expiry.
    case expired
    /// Malformed, signed by an unknown key, or tampered with.
    case invalid
}
