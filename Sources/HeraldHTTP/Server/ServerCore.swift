import HeraldObservability
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The state libmicrohttpd's callbacks reach through their `cls` pointer: immutable configuration, the dispatcher,
/// and atomics for the request count and the draining flag.
final class ServerCore: Sendable {
    /// Client addresses on their way from the accept callback to the connection they belong to.
    struct AddressBook {
        /// The accept policy and connection-started callbacks run back to back on the accepting worker thread, so
        /// the address waits here under that thread's id.
        var pendingByThread: [pthread_t: String] = [:]
        /// Keyed by the connection handle's address, which is unique while the connection is open.
        var byConnection: [UInt: String] = [:]
    }

    let configuration: HTTPServerConfiguration
    let dispatcher: RequestDispatcher
    let logger: Logger
    let metrics: Metrics?
    /// Requests from the request line until libmicrohttpd reports them complete.
    let inFlight = Atomic<Int>(0)
    /// Requests whose handler has started, until their response is sent. Graceful stop waits for these only:
    /// libmicrohttpd may not notice a client that abandoned a half-sent request until the idle timeout.
    let active = Atomic<Int>(0)
    let draining = Atomic<Bool>(false)
    let addresses = Mutex(AddressBook())
    let deadlines: ClientDeadlines

    init(
        configuration: HTTPServerConfiguration, dispatcher: RequestDispatcher, logger: Logger,
        metrics: Metrics?
    ) {
        self.configuration = configuration
        self.dispatcher = dispatcher
        self.logger = logger
        self.metrics = metrics
        self.deadlines = ClientDeadlines(
            timeout: configuration.headerTimeout, minimumBodyRate: configuration.minimumBodyRate)
    }

    /// The request a finished `RequestState` describes.
    func request(from state: RequestState) -> HTTPRequest {
        let (path, query) = HTTPRequest.split(target: state.target)
        var request = HTTPRequest(method: state.method, path: path, queryItems: QueryItem.parse(query))
        // Header names were lowercased while collecting them; assigning skips a second pass.
        request.headers = state.headers
        request.body = state.body
        request.requestID = state.requestID
        request.remoteAddress = state.remoteAddress
        return request
    }

    /// Records metrics and writes the access line once libmicrohttpd is done with the request.
    func finish(_ state: RequestState, completed: Bool) {
        let elapsed = ContinuousClock.now - state.started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let route = state.route ?? "unmatched"
        if let status = state.status, completed {
            metrics?.recordRequest(method: state.method, route: route, status: status, seconds: seconds)
        }
        guard logger.isEnabled(.info) else { return }
        // The route's template, not the path: a path names users and devices, which stay out of the logs, as does
        // the client's address (personal data; it serves only to count failed authentications).
        var fields: [(String, LogValue)] = [
            ("request.id", .string(state.requestID)),
            ("http.method", .string(state.method.rawValue)),
            ("http.route", .string(route)),
            ("http.status", state.status.map { .int($0.rawValue) } ?? .null),
            ("http.duration_ms", .double((seconds * 1_000_000).rounded() / 1000)),
            ("http.request_bytes", .int(state.body.count)),
            ("http.response_bytes", .int(state.responseBytes)),
        ]
        if let keyID = state.keyID { fields.append(("auth.key_id", .string(keyID))) }
        logger.log(.info, completed ? "request" : "request aborted", fields)
    }
}
