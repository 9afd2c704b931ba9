/// How the HTTP server listens and what it tolerates from clients.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// The IPv4 or IPv6 literal to bind; `localhost` means 127.0.0.1.
    public var host: String
    /// The TCP port; 0 picks a free one, readable from `HTTPServer.port` after start.
    public var port: UInt16
    /// Open connections at most; beyond it new connections wait in the kernel backlog. Each open connection has a
    /// thread of its own, so a handler blocked on the database holds up only its own connection.
    public var connectionLimit: Int
    /// Open connections from one client address at most (0: no limit of its own); beyond it a new connection from
    /// that address is closed as soon as it is accepted.
    public var connectionsPerAddress: Int
    /// An idle connection is closed after this long (whole seconds, rounded up).
    public var idleTimeout: Duration
    /// A connection that has not sent a request's complete headers this long after it opened, or after its previous
    /// response, is closed (`ClientDeadlines`).
    public var headerTimeout: Duration
    /// A request body still arriving after the header timeout must have averaged this many bytes per second since
    /// its headers, the header timeout not counted, or the connection is closed (`ClientDeadlines`); 0 leaves
    /// bodies to the idle timeout.
    public var minimumBodyRate: Int
    /// Per-connection memory for the request line, headers and read buffer; larger headers get 431.
    public var connectionMemoryLimit: Int
    /// The largest accepted request body; larger ones get 413.
    public var maxBodyBytes: Int
    /// The reverse proxies whose `X-Forwarded-For` names the client (`TrustedProxies`); none by default, so a
    /// request is its connection's peer.
    public var trustedProxies: TrustedProxies

    /// Creates a configuration; every default is suitable for a single-host deployment.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 8080,
        connectionLimit: Int = 1024,
        connectionsPerAddress: Int = 256,
        idleTimeout: Duration = .seconds(30),
        headerTimeout: Duration = .seconds(10),
        minimumBodyRate: Int = 16 * 1024,
        connectionMemoryLimit: Int = 32 * 1024,
        maxBodyBytes: Int = 1 << 20,
        trustedProxies: TrustedProxies = .none
    ) {
        self.host = host
        self.port = port
        self.connectionLimit = connectionLimit
        self.connectionsPerAddress = connectionsPerAddress
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
        self.minimumBodyRate = minimumBodyRate
        self.connectionMemoryLimit = connectionMemoryLimit
        self.maxBodyBytes = maxBodyBytes
        self.trustedProxies = trustedProxies
    }

    /// Parses `host:port` or `[v6]:port` into host and port; nil when malformed.
    public static func parseAddress(_ address: String) -> (host: String, port: UInt16)? {
        let host: Substring
        let portText: Substring
        if address.hasPrefix("[") {
            guard let close = address.firstIndex(of: "]") else { return nil }
            host = address[address.index(after: address.startIndex)..<close]
            let rest = address[address.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else {
            guard let colon = address.lastIndex(of: ":"), !address[..<colon].contains(":") else {
                return nil
            }
            host = address[..<colon]
            portText = address[address.index(after: colon)...]
        }
        guard !host.isEmpty, let port = UInt16(portText) else { return nil }
        return (String(host), port)
    }

    /// Every problem with the values, empty when valid; callers report them all at once.
    public func validationProblems() -> [String] {
        var problems: [String] = []
        if SocketAddress(host: host, port: port) == nil {
            problems.append("host must be an IPv4 or IPv6 address (got \(host))")
        }
        if !(1...1_000_000).contains(connectionLimit) {
            problems.append("connection limit must be 1…1000000")
        }
        if !(0...connectionLimit).contains(connectionsPerAddress) {
            problems.append("connections per address must be 0 (no limit of its own) to the connection limit")
        }
        if idleTimeout < .seconds(1) { problems.append("idle timeout must be at least 1 second") }
        if headerTimeout < .milliseconds(100) { problems.append("header timeout must be at least 0.1 second") }
        if minimumBodyRate < 0 { problems.append("minimum body rate must not be negative") }
        if connectionMemoryLimit < 4096 {
            problems.append("connection memory limit must be at least 4096 bytes")
        }
        if maxBodyBytes < 0 { problems.append("max body bytes must not be negative") }
        return problems
    }

    /// The idle timeout in whole seconds, rounded up.
    var idleTimeoutSeconds: Int {
        let (seconds, attoseconds) = idleTimeout.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
