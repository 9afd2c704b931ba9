internal import CNATS

/// A NATS client call that failed: which operation, and the library's status text (never a payload).
struct NATSError: Error, Sendable, CustomStringConvertible {
    /// What Herald was doing, such as `connect` or `fetch`.
    var operation: String
    /// The libnats status name, such as `NATS_TIMEOUT`.
    var code: String
    /// The JetStream error code when the server sent one (10058: stream name already in use, ...).
    var jetStreamCode: Int

    var description: String {
        jetStreamCode == 0 ? "nats \(operation): \(code)" : "nats \(operation): \(code) (jetstream \(jetStreamCode))"
    }

    /// Whether the call only ran out of time (an empty fetch, a slow acknowledgement).
    var isTimeout: Bool { code == "timeout" }

    init(operation: String, status: natsStatus, jetStreamCode: jsErrCode = jsErrCode(rawValue: 0)) {
        self.operation = operation
        self.code = Self.text(of: status)
        self.jetStreamCode = Int(jetStreamCode.rawValue)
    }

    static func text(of status: natsStatus) -> String {
        switch status {
        case NATS_TIMEOUT: return "timeout"
        case NATS_NO_RESPONDERS: return "no responders"
        case NATS_NOT_FOUND: return "not found"
        case NATS_CONNECTION_CLOSED: return "connection closed"
        case NATS_NO_SERVER: return "no server"
        case NATS_NOT_YET_CONNECTED: return "not yet connected"
        default: return natsStatus_GetText(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
        }
    }

    /// Throws when `status` is not `NATS_OK`.
    static func check(
        _ status: natsStatus, _ operation: String, jetStreamCode: jsErrCode = jsErrCode(rawValue: 0)
    ) throws(NATSError) {
        guard status == NATS_OK else {
            throw NATSError(operation: operation, status: status, jetStreamCode: jetStreamCode)
        }
    }
}
