import HeraldHTTP
import Testing

@Suite("Trusted proxies and the client address they name")
struct TrustedProxiesTests {
    static func proxies(_ text: String) throws -> TrustedProxies {
        try TrustedProxies.parse(text).get()
    }

    @Test("Addresses and CIDR ranges of both families are read; anything else names the entry")
    func parsing() throws {
        let proxies = try Self.proxies(" 10.0.0.0/8, 192.0.2.7 ,fd00::/8,,2001:db8::1 ")
        #expect(proxies.contains("10.200.3.4"))
        #expect(!proxies.contains("11.0.0.1"))
        #expect(proxies.contains("192.0.2.7"))
        #expect(!proxies.contains("192.0.2.8"))
        #expect(proxies.contains("fd12:3456::9"))
        #expect(!proxies.contains("fe80::1"))
        #expect(proxies.contains("2001:db8::1"))
        // A dual-stack socket reports an IPv4 peer as IPv4-mapped IPv6.
        #expect(proxies.contains("::ffff:10.1.2.3"))
        #expect(TrustedProxies.parse("").map(\.isEmpty) == .success(true))
        for bad in ["10.0.0.0/33", "10.0.0/8", "proxy.internal", "fd00::/129", "10.0.0.1/x", "10.0.0.1/"] {
            #expect(TrustedProxies.parse("192.0.2.1,\(bad)") == .failure(.notAnAddress(bad)))
        }
        let many = (0...TrustedProxies.maximumRanges).map { "10.0.\($0 / 256).\($0 % 256)" }.joined(separator: ",")
        #expect(TrustedProxies.parse(many) == .failure(.tooMany))
        // Bits below the prefix do not matter.
        #expect(try Self.proxies("10.1.2.3/16").contains("10.1.200.200"))
        #expect(try Self.proxies("0.0.0.0/0").contains("203.0.113.9"))
    }

    @Test("Without proxies, or from a peer that is none of them, the peer is the client whatever it forwards")
    func untrustedPeers() throws {
        #expect(TrustedProxies.none.clientAddress(peer: "203.0.113.5", forwardedFor: ["198.51.100.1"]) == "203.0.113.5")
        let proxies = try Self.proxies("10.0.0.0/8")
        #expect(proxies.clientAddress(peer: "203.0.113.5", forwardedFor: ["198.51.100.1"]) == "203.0.113.5")
    }

    @Test("From a proxy, the rightmost forwarded address that is not a proxy is the client")
    func rightmostUntrusted() throws {
        let proxies = try Self.proxies("10.0.0.0/8")
        // The client wrote a made-up address of its own in front; the proxies appended what they saw.
        #expect(
            proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["1.1.1.1, 198.51.100.7, 10.0.0.9"])
                == "198.51.100.7")
        // Several fields are one list, in the order received.
        #expect(
            proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["1.1.1.1", "198.51.100.7", "10.0.0.9"])
                == "198.51.100.7")
        // Ports and brackets are dropped, and the address is written one way.
        #expect(proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["198.51.100.7:4711"]) == "198.51.100.7")
        #expect(
            proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["[2001:DB8:0::5]:4711"]) == "2001:db8::5")
        // No header: the proxy itself is all there is.
        #expect(proxies.clientAddress(peer: "10.0.0.2", forwardedFor: []) == "10.0.0.2")
    }

    @Test("A walk that meets no untrusted address ends at the last address it trusted")
    func lastTrusted() throws {
        let proxies = try Self.proxies("10.0.0.0/8")
        #expect(proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["10.0.0.8, 10.0.0.9"]) == "10.0.0.8")
        #expect(proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["unknown, 10.0.0.9"]) == "10.0.0.9")
        #expect(proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["198.51.100.7, garbage"]) == "10.0.0.2")
        let padded = Array(repeating: "10.0.0.1", count: TrustedProxies.maximumHops + 5).joined(separator: ",")
        #expect(proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["198.51.100.7," + padded]) == "10.0.0.1")
    }
}
