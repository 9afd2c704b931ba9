/// What the server knows about one request while libmicrohttpd calls back for it. It is owned through the C
/// request slot and touched by one worker thread at a time, so it needs no lock.
final class RequestState {
    /// The request target as sent (path and query, still encoded).
    let target: String
    /// When the request line arrived.
    let started: ContinuousClock.Instant

    /// Whether headers and connection details have been read (the first access callback).
    var prepared = false
    var method = HTTPMethod.get
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var bodyTooLarge = false
    /// The body limit that applies: the matched route's own, else the server's.
    var bodyLimit = 0
    var requestID = ""
    var remoteAddress: String?
    /// The caller settled on the headers (nil inside: a public route); nil when not settled.
    var admitted: Principal??

    /// Filled in when the response is queued, for the access line and metrics.
    var status: HTTPStatus?
    var route: String?
    var keyID: String?
    var responseBytes = 0
    /// Whether the request counts as active (its response is being produced or sent).
    var active = false

    init(target: String, started: ContinuousClock.Instant) {
        self.target = target
        self.started = started
    }
}
