internal import CMicroHTTPD
import HeraldObservability

#if canImport(Glibc)
    import Glibc
#endif

// libmicrohttpd's callbacks. They are plain functions (not closures in top-level code, which Swift 6 would isolate
// to the main actor and check at run time on a worker thread) and reach the server through `cls`.

private func core(_ cls: UnsafeMutableRawPointer?) -> ServerCore {
    Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
}

/// Called once per request with the raw target, before any parsing; its result becomes the request slot.
func heraldURILog(
    _ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    let server = core(cls)
    server.inFlight.add(1, ordering: .relaxed)
    let state = RequestState(target: uri.map { String(cString: $0) } ?? "/", started: .now)
    return Unmanaged.passRetained(state).toOpaque()
}

/// Called after the headers, once per body chunk, and once more when the body is complete.
func heraldAccess(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    let server = core(cls)
    guard let requestSlot, let uploadDataSize else { return .NO }
    if requestSlot.pointee == nil {
        // Only reachable if the URI callback was skipped; start the request here so accounting still balances.
        requestSlot.pointee = heraldURILog(cls, url, connection)
    }
    let state = Unmanaged<RequestState>.fromOpaque(requestSlot.pointee!).takeUnretainedValue()
    if !state.prepared {
        if let connection {
            // The headers are in; from here the body's own deadline runs (and admission's time counts in its grace).
            server.deadlines.awaitBody(connectionKey(connection), socket: herald_connection_socket(connection))
        }
        prepare(state, connection: connection, method: method, server: server)
        // The route and the caller are settled on the headers, before the first body byte: a stranger, or a key
        // without the route's scope, is answered now and never makes the server hold a body.
        switch server.dispatcher.admit(server.request(from: state)) {
        case .admitted(let principal): state.admitted = .some(principal)
        case .refused(let refusal):
            if let connection { server.deadlines.release(connectionKey(connection)) }
            state.route = refusal.route
            state.active = true
            server.active.add(1, ordering: .relaxed)
            var response = refusal.response
            response.headers.set("Connection", "close")
            return queue(response, for: state, on: connection, server: server)
        }
        if declaresOversizedBody(state, limit: state.bodyLimit) {
            if let connection { server.deadlines.release(connectionKey(connection)) }
            // Answered before the upload, whether or not the client waits for 100 Continue.
            state.bodyTooLarge = true
            state.active = true
            server.active.add(1, ordering: .relaxed)
            return respondTooLarge(state, connection: connection, server: server)
        }
        return .YES
    }
    let chunkSize = uploadDataSize.pointee
    if chunkSize > 0 {
        if let connection { server.deadlines.received(chunkSize, on: connectionKey(connection)) }
        // Once a response is queued (a refusal, a 413), whatever the client still sends is dropped unread.
        if !state.bodyTooLarge, state.status == nil, let uploadData {
            if state.body.count + chunkSize > state.bodyLimit {
                // A body without a declared length (chunked) is cut the moment it passes the limit: what was held
                // goes, the rest is read and dropped (libmicrohttpd takes no response in the middle of an upload),
                // and the 413 follows the last chunk.
                state.bodyTooLarge = true
                state.body = []
            } else {
                UnsafeRawPointer(uploadData).withMemoryRebound(to: UInt8.self, capacity: chunkSize) {
                    state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: chunkSize))
                }
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }
    if state.status != nil { return .YES }
    if let connection { server.deadlines.release(connectionKey(connection)) }
    state.active = true
    server.active.add(1, ordering: .relaxed)
    if state.bodyTooLarge {
        return respondTooLarge(state, connection: connection, server: server)
    }
    let outcome = server.dispatcher.dispatch(server.request(from: state), admitted: state.admitted)
    state.route = outcome.route
    state.keyID = outcome.principal?.keyID
    return queue(outcome.response, for: state, on: connection, server: server)
}

/// Called when libmicrohttpd is done with a request, including when the client went away.
func heraldRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ reason: MHD_RequestTerminationCode
) {
    guard let requestSlot, let opaque = requestSlot.pointee else { return }
    requestSlot.pointee = nil
    let server = core(cls)
    // A kept-alive connection has the same time again for its next request's headers; one that ends otherwise is
    // closing, and its close notification comes next.
    if let connection, reason == .REQUEST_TERMINATED_COMPLETED_OK {
        server.deadlines.awaitHeaders(connectionKey(connection), socket: herald_connection_socket(connection))
    }
    let state = Unmanaged<RequestState>.fromOpaque(opaque).takeRetainedValue()
    server.finish(state, completed: reason == .REQUEST_TERMINATED_COMPLETED_OK && state.status != nil)
    if state.active {
        server.active.subtract(1, ordering: .releasing)
    }
    server.inFlight.subtract(1, ordering: .releasing)
}

/// Called on the accepting thread just before the connection is created; remembers the client address.
func heraldAcceptPolicy(
    _ cls: UnsafeMutableRawPointer?, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t
) -> MHD_Result {
    let server = core(cls)
    // While draining, new connections are accepted and closed at once; the listening socket stays with
    // libmicrohttpd until it stops (its quiesce call races its own worker threads and can abort the process).
    guard !server.draining.load(ordering: .acquiring) else { return .NO }
    let host = address.flatMap(SocketAddress.numericHost(of:))
    let thread = pthread_self()
    server.addresses.withLock { $0.pendingByThread[thread] = host }
    return .YES
}

/// Called when a connection starts and when it closes; ties the remembered address to the connection.
func heraldConnectionNotify(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_ConnectionNotificationCode
) {
    guard let connection else { return }
    let thread = pthread_self()
    let key = connectionKey(connection)
    let server = core(cls)
    server.addresses.withLock { book in
        if code == .CONNECTION_NOTIFY_STARTED {
            book.byConnection[key] = book.pendingByThread.removeValue(forKey: thread)
        } else {
            book.byConnection.removeValue(forKey: key)
        }
    }
    if code == .CONNECTION_NOTIFY_STARTED {
        server.deadlines.awaitHeaders(key, socket: herald_connection_socket(connection))
    } else {
        server.deadlines.release(key)
    }
}

/// A connection's handle as a key, unique while the connection is open.
func connectionKey(_ connection: OpaquePointer) -> UInt {
    UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
}

/// Routes libmicrohttpd's own diagnostics into the JSON log.
func heraldDaemonLog(
    _ cls: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) {
    guard let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let text = String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    core(cls).logger.warning(
        "libmicrohttpd", ["http.server.message": .string(text.trimmingCharacters(in: "\n"))])
}

private func prepare(
    _ state: RequestState, connection: OpaquePointer?, method: UnsafePointer<CChar>?,
    server: ServerCore
) {
    state.prepared = true
    state.method = HTTPMethod(rawValue: method.map { String(cString: $0) } ?? "GET")
    let opaque = Unmanaged.passUnretained(state).toOpaque()
    MHD_get_connection_values(connection, .HEADER_KIND, heraldCollectHeader, opaque)
    state.requestID = RequestID.accepting(state.headers["x-request-id"])
    // A route may accept larger (or only smaller) bodies than the server-wide limit, e.g. bulk imports.
    let (path, _) = HTTPRequest.split(target: state.target)
    state.bodyLimit =
        server.dispatcher.router.bodyLimit(method: state.method, path: path) ?? server.configuration.maxBodyBytes
    if let connection {
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
        // The connection's peer, or the client a trusted proxy names (`TrustedProxies`), found once per request.
        if let peer = server.addresses.withLock({ $0.byConnection[key] }) {
            state.remoteAddress = server.configuration.trustedProxies.clientAddress(
                peer: peer, forwardedFor: state.headers.values(for: "x-forwarded-for"))
        }
    }
}

private func heraldCollectHeader(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
    state.headers.add(String(cString: key).lowercased(), value.map { String(cString: $0) } ?? "")
    return .YES
}

private func declaresOversizedBody(_ state: RequestState, limit: Int) -> Bool {
    guard let length = state.headers["content-length"].flatMap({ Int($0) }) else { return false }
    return length > limit
}

private func respondTooLarge(
    _ state: RequestState, connection: OpaquePointer?, server: ServerCore
)
    -> MHD_Result
{
    let (path, _) = HTTPRequest.split(target: state.target)
    var response = HTTPResponse.problem(
        .contentTooLarge(limit: state.bodyLimit), instance: path,
        requestID: state.requestID)
    response.headers.set("X-Request-Id", state.requestID)
    // The rest of an oversized body is not worth reading on this connection.
    response.headers.set("Connection", "close")
    return queue(response, for: state, on: connection, server: server)
}

private func queue(
    _ response: HTTPResponse, for state: RequestState, on connection: OpaquePointer?,
    server: ServerCore
) -> MHD_Result {
    state.status = response.status
    state.responseBytes = response.body.count
    let created = response.body.withUnsafeBytes { buffer in
        MHD_create_response_from_buffer(
            buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse = created else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers where !HTTPHeaders.namesMatch(name, "content-length") {
        // A value with CR or LF is refused by libmicrohttpd, which is the right outcome for header injection.
        _ = MHD_add_response_header(mhdResponse, name, value)
    }
    if server.draining.load(ordering: .relaxed), response.headers["connection"] == nil {
        _ = MHD_add_response_header(mhdResponse, "Connection", "close")
    }
    return MHD_queue_response(connection, UInt32(response.status.rawValue), mhdResponse)
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}
