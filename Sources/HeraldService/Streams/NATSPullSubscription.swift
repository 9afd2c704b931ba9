internal import CNATS
import Foundation

/// A durable JetStream pull consumer, used from the thread that owns its client.
final class NATSPullSubscription {
    private let subscription: OpaquePointer

    init(_ subscription: OpaquePointer) {
        self.subscription = subscription
    }

    deinit {
        natsSubscription_Destroy(subscription)
    }

    /// Up to `batch` messages, waiting at most `timeoutMilliseconds` for the first; empty when none came.
    func fetch(batch: Int, timeoutMilliseconds: Int64) throws(NATSError) -> [NATSInboundMessage] {
        var list = natsMsgList()
        var code = jsErrCode(rawValue: 0)
        let status = natsSubscription_Fetch(&list, subscription, Int32(batch), timeoutMilliseconds, &code)
        if status == NATS_TIMEOUT { return [] }
        guard status == NATS_OK else { throw NATSError(operation: "fetch", status: status, jetStreamCode: code) }
        var messages: [NATSInboundMessage] = []
        messages.reserveCapacity(Int(list.Count))
        for index in 0..<Int(list.Count) {
            guard let message = list.Msgs[index] else { continue }
            messages.append(NATSInboundMessage(message, of: self))
            // The message now belongs to its wrapper; the list must not destroy it.
            list.Msgs[index] = nil
        }
        natsMsgList_Destroy(&list)
        return messages
    }
}
