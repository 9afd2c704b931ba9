#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 socket address parsed from a literal host and a port.
struct SocketAddress {
    enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    let storage: Storage

    /// Parses `host` as an IPv4 or IPv6 literal; `localhost` means 127.0.0.1.
    init?(host: String, port: UInt16) {
        let literal = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            storage = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            storage = .v6(v6)
            return
        }
        return nil
    }

    var family: Int32 {
        switch storage {
        case .v4: AF_INET
        case .v6: AF_INET6
        }
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch storage {
        case .v4(var address):
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .v6(var address):
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }

    /// The numeric host of a `sockaddr` (IPv4 or IPv6), or nil for another family.
    static func numericHost(of address: UnsafePointer<sockaddr>) -> String? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var copy = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            return numericHost(family: AF_INET, address: &copy.sin_addr)
        case AF_INET6:
            var copy = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            return numericHost(family: AF_INET6, address: &copy.sin6_addr)
        default:
            return nil
        }
    }

    /// The text of an `in_addr` (`AF_INET`) or `in6_addr` (`AF_INET6`), as `inet_ntop` writes it.
    static func numericHost(family: Int32, address: UnsafeRawPointer) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        guard inet_ntop(family, address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
