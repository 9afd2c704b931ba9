#if canImport(Glibc)
    import Glibc
#endif

/// The reverse proxies Herald runs behind, whose `X-Forwarded-For` names the client. A request that comes from any
/// other address is its connection's peer, whatever it says of itself; with no proxies configured every request is.
///
/// Each proxy appends the address it received the request from, so the list is read from its right: addresses of
/// trusted proxies are passed over, and the first other one is the client. A client can write whatever it likes
/// to the left of what the first trusted proxy appended, and none of it is read unless every address to its right
/// is a trusted proxy.
public struct TrustedProxies: Sendable, Equatable {
    /// One address range: the leading `prefix` bits of `bytes` (4 bytes for IPv4, 16 for IPv6).
    struct Range: Sendable, Equatable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var bits = prefix
            for index in 0..<bytes.count where bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if address[index] & mask != bytes[index] & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    /// The most ranges a configuration may list.
    public static let maximumRanges = 256
    /// The most `X-Forwarded-For` addresses read from the right before giving up: a longer chain is not a path
    /// through proxies but a client's padding.
    public static let maximumHops = 32

    let ranges: [Range]

    /// No proxy is trusted: every request is its connection's peer.
    public static let none = TrustedProxies(ranges: [])

    private init(ranges: [Range]) {
        self.ranges = ranges
    }

    /// Whether no proxy is trusted.
    public var isEmpty: Bool { ranges.isEmpty }

    /// Parses a comma-separated list of IPv4 and IPv6 addresses and CIDR ranges (`10.0.0.0/8`, `fd00::/8`,
    /// `192.0.2.7`); the error names the first entry that is neither, or says that the list is too long.
    public static func parse(_ text: String) -> Result<TrustedProxies, ParseError> {
        var ranges: [Range] = []
        for field in text.split(separator: ",") {
            let item = String(field.trimmingSpaces())
            guard !item.isEmpty else { continue }
            let parts = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = Self.bytes(of: String(parts[0])) else { return .failure(.notAnAddress(item)) }
            var prefix = bytes.count * 8
            if parts.count == 2 {
                guard let bits = Int(parts[1]), (0...bytes.count * 8).contains(bits) else {
                    return .failure(.notAnAddress(item))
                }
                prefix = bits
            }
            ranges.append(Range(bytes: bytes, prefix: prefix))
        }
        guard ranges.count <= maximumRanges else { return .failure(.tooMany) }
        return .success(TrustedProxies(ranges: ranges))
    }

    /// Why a list of proxies was refused.
    public enum ParseError: Error, Equatable {
        case notAnAddress(String)
        case tooMany
    }

    /// Whether `address` (an IPv4 or IPv6 literal) is one of the trusted proxies.
    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address) else { return false }
        return contains(bytes: bytes)
    }

    private func contains(bytes: [UInt8]) -> Bool {
        ranges.contains { $0.contains(bytes) }
    }

    /// The client's address for a request from `peer` carrying these `X-Forwarded-For` values (every field, in the
    /// order received): `peer` unless it is a trusted proxy; else the rightmost forwarded address that is not one.
    /// When every forwarded address is a trusted proxy, or the walk meets an entry that is not an address, or
    /// passes `maximumHops`, the last address it trusted is the client.
    public func clientAddress(peer: String, forwardedFor: [String]) -> String {
        guard !ranges.isEmpty, contains(peer) else { return peer }
        var client = peer
        var hops = 0
        for field in forwardedFor.reversed() {
            for hop in field.split(separator: ",").reversed() {
                hops += 1
                guard hops <= Self.maximumHops, let bytes = Self.bytes(of: Self.host(of: String(hop.trimmingSpaces())))
                else { return client }
                client = Self.text(of: bytes)
                if !contains(bytes: bytes) { return client }
            }
        }
        return client
    }

    /// The address of an `X-Forwarded-For` entry: some proxies add a port (`192.0.2.1:4711`, `[2001:db8::1]:4711`).
    static func host(of entry: String) -> String {
        if entry.hasPrefix("["), let close = entry.firstIndex(of: "]") {
            return String(entry[entry.index(after: entry.startIndex)..<close])
        }
        if let colon = entry.firstIndex(of: ":"), entry.lastIndex(of: ":") == colon {
            return String(entry[..<colon])
        }
        return entry
    }

    /// The network-order bytes of an IPv4 (4) or IPv6 (16) literal; an IPv4-mapped IPv6 address counts as its IPv4
    /// address, as a dual-stack socket reports IPv4 peers that way.
    static func bytes(of literal: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, literal, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return Array(bytes[12..<16])
        }
        return bytes
    }

    /// The canonical text of an address's bytes, so that one client is one key however it was written.
    static func text(of bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { address in
            SocketAddress.numericHost(family: bytes.count == 4 ? AF_INET : AF_INET6, address: address.baseAddress!)
        } ?? ""
    }
}
