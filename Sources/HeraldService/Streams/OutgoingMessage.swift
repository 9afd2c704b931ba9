internal import CNATS

/// A message to publish: subject, body and headers (`Nats-Msg-Id` among them when it must be de-duplicated).
struct OutgoingMessage: Sendable {
    var subject: String
    var body: [UInt8]
    /// Header names and values, in order.
    var headers: [(name: String, value: String)]

    /// A message with `headers` in order.
    init(subject: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.subject = subject
        self.body = body
        self.headers = headers
    }

    /// A message JetStream de-duplicates by `id` within the stream's duplicate window.
    init(subject: String, body: [UInt8], messageId: String, headers: [(name: String, value: String)] = []) {
        self.init(subject: subject, body: body, headers: [("Nats-Msg-Id", messageId)] + headers)
    }

    /// The libnats message; the caller destroys it (or hands it to an asynchronous publish).
    func makeMessage() throws(NATSError) -> OpaquePointer {
        var message: OpaquePointer?
        let status = body.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                natsMsg_Create(&message, subject, nil, $0.baseAddress, Int32($0.count))
            }
        }
        guard status == NATS_OK, let message else { throw NATSError(operation: "message", status: status) }
        for header in headers {
            let set = natsMsgHeader_Add(message, header.name, header.value)
            guard set == NATS_OK else {
                natsMsg_Destroy(message)
                throw NATSError(operation: "message header", status: set)
            }
        }
        return message
    }
}
