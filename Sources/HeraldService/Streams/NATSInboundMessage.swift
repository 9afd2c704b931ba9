internal import CNATS
import Foundation

/// One message fetched from a pull consumer; acknowledged by the thread that fetched it.
final class NATSInboundMessage {
    private let message: OpaquePointer
    /// The library acknowledges through the subscription a message came from, which it does not keep alive: the
    /// message does, so that an ack, a nak or the message's end can never reach a destroyed subscription.
    private let subscription: NATSPullSubscription

    init(_ message: OpaquePointer, of subscription: NATSPullSubscription) {
        self.message = message
        self.subscription = subscription
    }

    deinit {
        natsMsg_Destroy(message)
    }

    /// The subject it was published on.
    var subject: String {
        natsMsg_GetSubject(message).map { String(cString: $0) } ?? ""
    }

    /// The payload bytes.
    var body: [UInt8] {
        let count = Int(natsMsg_GetDataLength(message))
        guard count > 0, let data = natsMsg_GetData(message) else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: count) {
            Array(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    /// Where it sits in its stream, as `stream/sequence` (from the JetStream reply subject); the same for every
    /// redelivery of the message.
    var streamPosition: String? {
        var meta: UnsafeMutablePointer<jsMsgMetaData>?
        guard natsMsg_GetMetaData(&meta, message) == NATS_OK, let meta else { return nil }
        defer { jsMsgMetaData_Destroy(meta) }
        let stream = meta.pointee.Stream.map { String(cString: $0) } ?? ""
        return "\(stream)/\(meta.pointee.Sequence.Stream)"
    }

    /// The first value of header `name`.
    func header(_ name: String) -> String? {
        var value: UnsafePointer<CChar>?
        guard natsMsgHeader_Get(message, name, &value) == NATS_OK, let value else { return nil }
        return String(cString: value)
    }

    /// Done: JetStream will not deliver it again.
    func ack() throws(NATSError) {
        try NATSError.check(natsMsg_Ack(message, nil), "ack")
    }

    /// Not now: deliver it again after `delayMilliseconds`.
    func nak(delayMilliseconds: Int64) throws(NATSError) {
        try NATSError.check(natsMsg_NakWithDelay(message, delayMilliseconds, nil), "nak")
    }

    /// Never: the message cannot be processed and must not come back.
    func term() throws(NATSError) {
        try NATSError.check(natsMsg_Term(message, nil), "term")
    }
}
