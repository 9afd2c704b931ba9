import Foundation
import HeraldTestSupport
import Testing

/// Against the real binary: an address that keeps presenting unknown API keys is answered 429 with `Retry-After`
/// while a valid key it used still works, and `HERALD_METRICS_ADDR` moves `/metrics` off the API port.
@Suite("The edge's limits and metrics address (binary end to end)", .serialized)
struct EdgeEndToEndTests {
    @Test func guessingKeysEndsIn429AndMetricsLiveOnTheirOwnAddress() async throws {
        let metricsPort = RunningHerald.freePort()
        let herald = try RunningHerald.start(environment: [
            "HERALD_AUTH_FAILURE_LIMIT": "5/60", "HERALD_METRICS_ADDR": "127.0.0.1:\(metricsPort)",
            "HERALD_PIPELINE_WORKERS": "0",
        ])
        defer { herald.kill() }
        _ = try await herald.waitUntilReady()
        // The admin key is looked up once, so it is known as valid.
        #expect(try await herald.get("/v1/categories", key: herald.adminKey).status == 200)

        var statuses: [Int] = []
        for guess in 0..<7 {
            statuses.append(try await herald.get("/v1/categories", key: "hk_guess_\(guess)_\(UUID())").status)
        }
        #expect(statuses == [401, 401, 401, 401, 401, 429, 429])
        let refused = try await LoopbackHTTP.request(
            port: herald.port, "GET", "/v1/categories", json: nil, key: "hk_guess_last")
        #expect(refused.status == 429)
        // 5 failures a minute drain one every 12 s; the wait left is at most that.
        let wait = try #require(refused.header("Retry-After").flatMap { Int($0) })
        #expect((1...12).contains(wait))
        #expect(refused.body.contains("urn:herald:problem:too-many-failed-authentications"))
        // A key known as valid still gets in from that address, however long the guesses took.
        #expect(try await herald.get("/v1/categories", key: herald.adminKey).status == 200)

        // `/metrics` answers on its own address only, and that address serves nothing else.
        #expect(try await herald.get("/metrics").status == 404)
        let metrics = try await LoopbackHTTP.request(port: metricsPort, "GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.body.contains("herald_http_requests_total"))
        #expect(try await LoopbackHTTP.request(port: metricsPort, "GET", "/v1/categories").status == 404)
        #expect(try await LoopbackHTTP.request(port: metricsPort, "GET", "/health").status == 404)
    }

    /// Behind a trusted proxy (here the loopback address the tests connect from), the limit counts each client the
    /// proxy names apart; a client that names itself through an untrusted peer is not believed.
    @Test func behindATrustedProxyEachForwardedClientHasItsOwnLimit() async throws {
        let herald = try RunningHerald.start(environment: [
            "HERALD_AUTH_FAILURE_LIMIT": "3/60", "HERALD_TRUSTED_PROXIES": "127.0.0.0/8",
            "HERALD_PIPELINE_WORKERS": "0",
        ])
        defer { herald.kill() }
        _ = try await herald.waitUntilReady()
        func guess(from client: String) async throws -> Int {
            try await LoopbackHTTP.request(
                port: herald.port, "GET", "/v1/categories",
                headers: [("Authorization", "Bearer hk_guess_\(UUID())"), ("X-Forwarded-For", "1.2.3.4, \(client)")]
            ).status
        }
        var first: [Int] = []
        for _ in 0..<5 { first.append(try await guess(from: "198.51.100.1")) }
        #expect(first == [401, 401, 401, 429, 429])
        // Another client behind the same proxy has its own budget; the address it wrote in front is not read.
        #expect(try await guess(from: "198.51.100.2") == 401)
    }

    /// Without trusted proxies, `X-Forwarded-For` changes nothing: every guess counts against the connection's peer.
    @Test func withoutTrustedProxiesForwardedAddressesAreIgnored() async throws {
        let herald = try RunningHerald.start(environment: [
            "HERALD_AUTH_FAILURE_LIMIT": "3/60", "HERALD_PIPELINE_WORKERS": "0",
        ])
        defer { herald.kill() }
        _ = try await herald.waitUntilReady()
        var statuses: [Int] = []
        for index in 0..<5 {
            statuses.append(
                try await LoopbackHTTP.request(
                    port: herald.port, "GET", "/v1/categories",
                    headers: [
                        ("Authorization", "Bearer hk_guess_\(UUID())"), ("X-Forwarded-For", "198.51.100.\(index)"),
                    ]
                ).status)
        }
        #expect(statuses == [401, 401, 401, 429, 429])
    }
}
