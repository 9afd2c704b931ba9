internal import CMicroHTTPD

/// Starts libmicrohttpd. `MHD_start_daemon` is variadic, which Swift cannot call, so every option goes through
/// `MHD_start_daemon_va` as one `MHD_OPTION_ARRAY`; function pointers travel in the array as integers.
enum MHDDaemon {
    static func start(
        _ configuration: HTTPServerConfiguration, listenSocket: Int32, ipv6: Bool,
        core: UnsafeMutableRawPointer
    ) -> OpaquePointer? {
        // A thread per connection: handlers block on the database, and a blocked handler must hold up only its
        // own connection, never `/health` or another client's request sharing an event-loop thread. poll(), not
        // select(), so descriptors past FD_SETSIZE work.
        var flags =
            MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
            | MHD_USE_ERROR_LOG.rawValue
            // Wakes the polling threads when the daemon stops.
            | MHD_USE_ITC.rawValue
        if ipv6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        let logger: MHD_LogCallback = heraldDaemonLog
        let uriLog:
            @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) ->
                UnsafeMutableRawPointer? = heraldURILog
        let completed: MHD_RequestCompletedCallback = heraldRequestCompleted
        let connectionNotify: MHD_NotifyConnectionCallback = heraldConnectionNotify
        var options: [MHD_OptionItem] = [
            // First, so that messages during start-up already go to the JSON log.
            item(.EXTERNAL_LOGGER, unsafeBitCast(logger, to: Int.self), core),
            item(.LISTEN_SOCKET, Int(listenSocket)),
            item(.CONNECTION_LIMIT, configuration.connectionLimit),
            // 0 leaves it off; libmicrohttpd closes a connection beyond it as soon as it is accepted.
            item(.PER_IP_CONNECTION_LIMIT, configuration.connectionsPerAddress),
            item(.CONNECTION_TIMEOUT, configuration.idleTimeoutSeconds),
            item(.CONNECTION_MEMORY_LIMIT, configuration.connectionMemoryLimit),
            item(.URI_LOG_CALLBACK, unsafeBitCast(uriLog, to: Int.self), core),
            item(.NOTIFY_COMPLETED, unsafeBitCast(completed, to: Int.self), core),
            item(.NOTIFY_CONNECTION, unsafeBitCast(connectionNotify, to: Int.self), core),
        ]
        options.append(item(.END, 0))
        let acceptPolicy: MHD_AcceptPolicyCallback = heraldAcceptPolicy
        let access: MHD_AccessHandlerCallback = heraldAccess
        return options.withUnsafeMutableBufferPointer { buffer in
            // Raw pointers are not CVarArg on Linux; OpaquePointer is.
            withVaList([
                MHD_OPTION.ARRAY.rawValue, OpaquePointer(buffer.baseAddress!),
                MHD_OPTION.END.rawValue,
            ]) { arguments in
                MHD_start_daemon_va(flags, 0, acceptPolicy, core, access, core, arguments)
            }
        }
    }

    private static func item(
        _ option: MHD_OPTION, _ value: Int, _ pointer: UnsafeMutableRawPointer? = nil
    )
        -> MHD_OptionItem
    {
        MHD_OptionItem(option: option, value: value, ptr_value: pointer)
    }
}
