import HeraldHTTP
import Testing

@testable import HeraldService

/// The edge's settings: the failed-authentication limit per client address, the trusted proxies and the metrics
/// address.
@Suite("Edge settings")
struct EdgeSettingsTests {
    static func load(_ environment: [String: String]) -> Result<ServiceConfig, ConfigProblems> {
        ServiceConfig.load(environment: environment, arguments: [])
    }

    @Test func theDefaultsLimitFailuresAndServeMetricsOnTheAPIPort() throws {
        let config = try Self.load([:]).get()
        #expect(config.authFailureLimit == AuthFailureLimiter.Limit(count: 30, period: .seconds(60)))
        #expect(config.metricsAddress == nil)
    }

    @Test func aLimitIsCountPerSecondsOrOff() throws {
        #expect(
            try Self.load(["HERALD_AUTH_FAILURE_LIMIT": "5/10"]).get().authFailureLimit
                == AuthFailureLimiter.Limit(count: 5, period: .seconds(10)))
        #expect(try Self.load(["HERALD_AUTH_FAILURE_LIMIT": "off"]).get().authFailureLimit == nil)
    }

    @Test(arguments: [
        ("5", "must be COUNT/SECONDS, e.g. 30/60 for 30 unknown keys a minute, or off"),
        ("0/60", "the count must be from 1 to 100000 (off turns the limit off)"),
        ("5/0", "the seconds must be from 1 to 86400"),
    ])
    func aBadLimitIsAProblemNamingTheSetting(text: String, message: String) {
        guard case .failure(let problems) = Self.load(["HERALD_AUTH_FAILURE_LIMIT": text]) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(problems.problems == [ConfigProblem(setting: "HERALD_AUTH_FAILURE_LIMIT", message: message)])
    }

    @Test func aMetricsAddressIsIPv4AndPort() throws {
        #expect(
            try Self.load(["HERALD_METRICS_ADDR": "127.0.0.1:9090"]).get().metricsAddress
                == MetricsAddress(host: "127.0.0.1", port: 9090))
        guard case .failure(let problems) = Self.load(["HERALD_METRICS_ADDR": "localhost"]) else {
            Issue.record("accepted localhost")
            return
        }
        #expect(problems.problems.map(\.setting) == ["HERALD_METRICS_ADDR"])
    }

    @Test func trustedProxiesAreAddressesAndRangesAndNoneByDefault() throws {
        #expect(try Self.load([:]).get().trustedProxies.isEmpty)
        let config = try Self.load(["HERALD_TRUSTED_PROXIES": "10.0.0.0/8,fd00::/8"]).get()
        #expect(config.trustedProxies.contains("10.9.8.7"))
        #expect(config.httpServerConfiguration(port: 0).trustedProxies == config.trustedProxies)
        let flag = try ServiceConfig.load(environment: [:], arguments: ["--trusted-proxies", "192.0.2.1"]).get()
        #expect(flag.trustedProxies.contains("192.0.2.1"))
        guard case .failure(let problems) = Self.load(["HERALD_TRUSTED_PROXIES": "10.0.0.0/8,lb.internal\u{7}"]) else {
            Issue.record("accepted a host name")
            return
        }
        #expect(
            problems.problems == [
                ConfigProblem(
                    setting: "HERALD_TRUSTED_PROXIES",
                    message: "must list IPv4 or IPv6 addresses or CIDR ranges, comma-separated, e.g. "
                        + "10.0.0.0/8,fd00::/8 (\"lb.internal\" is neither)")
            ])
    }
}
