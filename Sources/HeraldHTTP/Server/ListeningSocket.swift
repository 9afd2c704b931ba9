#if canImport(Glibc)
    import Glibc
#endif

/// Creates the listening socket that libmicrohttpd is handed, so the bound port can be read with getsockname.
enum ListeningSocket {
    /// A non-blocking, close-on-exec socket bound to `address` and listening.
    static func open(_ address: SocketAddress, backlog: Int32) throws -> Int32 {
        let fd = socket(
            address.family,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket") }
        var one: Int32 = 1
        // SO_REUSEADDR lets a restarted server bind while old connections sit in TIME_WAIT.
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if address.family == AF_INET6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = address.withSockAddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let error = failure("bind")
            close(fd)
            throw error
        }
        guard listen(fd, backlog) == 0 else {
            let error = failure("listen")
            close(fd)
            throw error
        }
        return fd
    }

    /// The port the socket is bound to.
    static func boundPort(of fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            switch family {
            case AF_INET:
                UInt16(bigEndian: UnsafeRawPointer(pointer).load(as: sockaddr_in.self).sin_port)
            case AF_INET6:
                UInt16(bigEndian: UnsafeRawPointer(pointer).load(as: sockaddr_in6.self).sin6_port)
            default:
                nil
            }
        }
    }

    private static func failure(_ call: String) -> HTTPServerError {
        let code = errno
        return HTTPServerError(.listenFailed, "\(call) failed: \(String(cString: strerror(code)))")
    }
}
