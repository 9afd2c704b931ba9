/// Why the HTTP server could not start.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed.
    public enum Code: String, Sendable {
        /// The configuration is invalid.
        case invalidConfiguration = "invalid_configuration"
        /// The listening socket could not be created, bound or put into listening state.
        case listenFailed = "listen_failed"
        /// libmicrohttpd refused to start.
        case daemonFailed = "daemon_failed"
        /// `start` was called on a running or stopped server.
        case invalidState = "invalid_state"
    }

    /// The failure kind.
    public let code: Code
    /// A human explanation (configuration and errno text only).
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
