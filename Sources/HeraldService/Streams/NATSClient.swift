internal import CNATS
import Foundation

/// One connection to a NATS cluster with its JetStream context. Every call blocks, so an instance belongs to one
/// dedicated thread (never the cooperative pool); it is deliberately not `Sendable`.
final class NATSClient {
    private let connection: OpaquePointer
    private let jetStream: OpaquePointer
    /// Receives the acknowledgements of asynchronous publishes on a library thread.
    let ledger = PublishLedger()

    /// Connects to `servers` (reconnecting forever to whichever answers) and opens JetStream.
    init(servers: [String], name: String) throws(NATSError) {
        var options: OpaquePointer?
        try NATSError.check(natsOptions_Create(&options), "options")
        defer { natsOptions_Destroy(options) }
        var copies = servers.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let status = copies.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) {
                natsOptions_SetServers(options, $0.baseAddress, Int32($0.count))
            }
        }
        try NATSError.check(status, "servers")
        try NATSError.check(natsOptions_SetName(options, name), "options")
        // A node that restarts must not end the client: reconnect to any member for as long as it takes.
        try NATSError.check(natsOptions_SetMaxReconnect(options, -1), "options")
        try NATSError.check(natsOptions_SetReconnectWait(options, 250), "options")
        try NATSError.check(natsOptions_SetTimeout(options, 2_000), "options")
        var connection: OpaquePointer?
        try NATSError.check(natsConnection_Connect(&connection, options), "connect")
        var jsOptions = jsOptions()
        jsOptions_Init(&jsOptions)
        jsOptions.Wait = 5_000
        jsOptions.PublishAsync.MaxPending = 4_096
        jsOptions.PublishAsync.AckHandler = publishAcknowledged
        // libnats runs the acknowledgement handler on a thread of its own, and closing the connection does not wait
        // for a handler that is running, so the ledger may be reached after this client is gone. It is retained
        // for the life of the process instead: one small object per client, of which a process makes a handful.
        jsOptions.PublishAsync.AckHandlerClosure = Unmanaged.passRetained(ledger).toOpaque()
        var context: OpaquePointer?
        let opened = natsConnection_JetStream(&context, connection, &jsOptions)
        guard opened == NATS_OK, let context, let connection else {
            natsConnection_Destroy(connection)
            throw NATSError(operation: "jetstream", status: opened)
        }
        self.connection = connection
        self.jetStream = context
    }

    deinit {
        jsCtx_Destroy(jetStream)
        natsConnection_Close(connection)
        natsConnection_Destroy(connection)
    }

    /// Creates the stream when it does not exist yet; an existing one is left as its operator configured it.
    func ensureStream(name: String, subjects: [String], replicas: Int) throws(NATSError) {
        var info: UnsafeMutablePointer<jsStreamInfo>?
        var code = jsErrCode(rawValue: 0)
        let found = js_GetStreamInfo(&info, jetStream, name, nil, &code)
        if found == NATS_OK {
            jsStreamInfo_Destroy(info)
            return
        }
        guard found == NATS_NOT_FOUND else { throw NATSError(operation: "stream info", status: found) }
        var config = jsStreamConfig()
        jsStreamConfig_Init(&config)
        var copies = subjects.map { UnsafePointer(strdup($0)) }
        defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        let status = name.withCString { name in
            copies.withUnsafeMutableBufferPointer { buffer in
                config.Name = name
                config.Subjects = buffer.baseAddress
                config.SubjectsLen = Int32(buffer.count)
                config.Storage = js_FileStorage
                config.Replicas = Int64(replicas)
                // Two minutes of publish de-duplication by Nats-Msg-Id, JetStream's default made explicit.
                config.Duplicates = 120 * 1_000_000_000
                return js_AddStream(&info, jetStream, &config, nil, &code)
            }
        }
        jsStreamInfo_Destroy(info)
        // Another instance may have created it meanwhile (10058: stream name already in use), or a stream of
        // another name already captures these subjects (10065), which serves as well.
        if status != NATS_OK && code.rawValue != 10058 && code.rawValue != 10065 {
            throw NATSError(operation: "add stream", status: status, jetStreamCode: code)
        }
    }

    /// Binds (creating when missing) the durable pull consumer `durable` on `stream`, filtered by `subject`.
    func pullSubscription(
        stream: String, subject: String, durable: String, ackWaitSeconds: Int, maxAckPending: Int
    ) throws(NATSError) -> NATSPullSubscription {
        var options = jsSubOptions()
        jsSubOptions_Init(&options)
        var subscription: OpaquePointer?
        var code = jsErrCode(rawValue: 0)
        let status = stream.withCString { stream in
            options.Stream = stream
            options.Config.AckPolicy = js_AckExplicit
            options.Config.AckWait = Int64(ackWaitSeconds) * 1_000_000_000
            options.Config.MaxAckPending = Int64(maxAckPending)
            return js_PullSubscribe(&subscription, jetStream, subject, durable, nil, &options, &code)
        }
        guard status == NATS_OK, let subscription else {
            throw NATSError(operation: "pull subscribe", status: status, jetStreamCode: code)
        }
        return NATSPullSubscription(subscription)
    }

    /// Publishes to JetStream and waits for the stream's acknowledgement.
    func publish(_ outgoing: OutgoingMessage, maxWaitMilliseconds: Int64 = 5_000) throws(NATSError) {
        let message = try outgoing.makeMessage()
        defer { natsMsg_Destroy(message) }
        var options = jsPubOptions()
        jsPubOptions_Init(&options)
        options.MaxWait = maxWaitMilliseconds
        var ack: UnsafeMutablePointer<jsPubAck>?
        var code = jsErrCode(rawValue: 0)
        let status = js_PublishMsg(&ack, jetStream, message, &options, &code)
        jsPubAck_Destroy(ack)
        try NATSError.check(status, "publish", jetStreamCode: code)
    }

    /// Publishes every message without waiting for each acknowledgement, then waits up to `maxWaitMilliseconds`
    /// for all of them. Returns the `Nats-Msg-Id`s JetStream acknowledged (stored now or recognised as a
    /// duplicate); the others may or may not be stored and must be sent again with the same id.
    func publishAll(_ messages: [OutgoingMessage], maxWaitMilliseconds: Int64) -> Set<String> {
        ledger.reset()
        for outgoing in messages {
            guard let made = try? outgoing.makeMessage() else { continue }
            var message: OpaquePointer? = made
            if js_PublishMsgAsync(jetStream, &message, nil) != NATS_OK {
                // Not handed to the library (for instance while reconnecting): it is simply not acknowledged.
                natsMsg_Destroy(message)
                break
            }
        }
        var options = jsPubOptions()
        jsPubOptions_Init(&options)
        options.MaxWait = maxWaitMilliseconds
        if js_PublishAsyncComplete(jetStream, &options) != NATS_OK {
            // Take back what is still outstanding so a late acknowledgement cannot be mistaken for this round's.
            var pending = natsMsgList()
            if js_PublishAsyncGetPendingList(&pending, jetStream) == NATS_OK { natsMsgList_Destroy(&pending) }
        }
        return ledger.acknowledged()
    }
}

/// The library calls this on its own thread for each asynchronous publish; it records the outcome by message id.
private func publishAcknowledged(
    _ context: OpaquePointer?, _ message: OpaquePointer?, _ ack: UnsafeMutablePointer<jsPubAck>?,
    _ failure: UnsafeMutablePointer<jsPubAckErr>?, _ closure: UnsafeMutableRawPointer?
) {
    defer { natsMsg_Destroy(message) }
    guard let closure, let message else { return }
    let ledger = Unmanaged<PublishLedger>.fromOpaque(closure).takeUnretainedValue()
    var value: UnsafePointer<CChar>?
    guard natsMsgHeader_Get(message, "Nats-Msg-Id", &value) == NATS_OK, let value else { return }
    ledger.record(id: String(cString: value), acknowledged: ack != nil && failure == nil)
}
