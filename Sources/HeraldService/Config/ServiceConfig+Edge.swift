import HeraldHTTP

/// Settings of the HTTP edge beyond the listening address: how many unknown API keys one client address may present,
/// which reverse proxies name the client, and where `/metrics` is served.
extension ServiceConfig {
    static let authFailureCounts = 1...100_000
    static let authFailureSeconds = 1...86_400

    /// Reads and checks `HERALD_AUTH_FAILURE_LIMIT`, `HERALD_TRUSTED_PROXIES` and `HERALD_METRICS_ADDR`.
    mutating func applyEdge(_ values: [String: String], problems: inout [ConfigProblem]) {
        if let text = values["HERALD_AUTH_FAILURE_LIMIT"] {
            switch Self.countPerSeconds(
                text, setting: "HERALD_AUTH_FAILURE_LIMIT", counts: Self.authFailureCounts,
                seconds: Self.authFailureSeconds, example: "30/60 for 30 unknown keys a minute")
            {
            case .success(let limit):
                authFailureLimit = limit.map { AuthFailureLimiter.Limit(count: $0.count, period: .seconds($0.seconds)) }
            case .failure(let problem): problems.append(problem)
            }
        }
        if let text = values["HERALD_TRUSTED_PROXIES"] {
            switch TrustedProxies.parse(text) {
            case .success(let proxies): trustedProxies = proxies
            case .failure(.notAnAddress(let entry)):
                problems.append(
                    ConfigProblem(
                        setting: "HERALD_TRUSTED_PROXIES",
                        message: "must list IPv4 or IPv6 addresses or CIDR ranges, comma-separated, e.g. "
                            + "10.0.0.0/8,fd00::/8 (\(Self.quoted(entry)) is neither)"))
            case .failure(.tooMany):
                problems.append(
                    ConfigProblem(
                        setting: "HERALD_TRUSTED_PROXIES",
                        message: "lists more than \(TrustedProxies.maximumRanges) addresses and ranges"))
            }
        }
        if let address = values["HERALD_METRICS_ADDR"] {
            switch Self.parseAddress(address) {
            case .some((let host, let port)): metricsAddress = MetricsAddress(host: host, port: port)
            case .none:
                problems.append(
                    ConfigProblem(setting: "HERALD_METRICS_ADDR", message: "must be IPv4:port, e.g. 127.0.0.1:9090"))
            }
        }
    }

    /// An entry of a setting as a problem may show it: at most 64 characters, control characters left out.
    static func quoted(_ entry: String) -> String {
        let visible = entry.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        let text = String(String.UnicodeScalarView(visible.prefix(64)))
        return "\"" + text + (visible.count > 64 ? "…" : "") + "\""
    }

    /// A limit written `COUNT/SECONDS`, or `off` (nil); `setting` names it in the problem, `noun` in the advice.
    static func countPerSeconds(
        _ text: String, setting: String, counts: ClosedRange<Int>, seconds: ClosedRange<Int>, example: String,
        noun: String = "limit"
    ) -> Result<(count: Int, seconds: Int)?, ConfigProblem> {
        func problem(_ message: String) -> Result<(count: Int, seconds: Int)?, ConfigProblem> {
            .failure(ConfigProblem(setting: setting, message: message))
        }
        if text.lowercased() == "off" { return .success(nil) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), let period = Int(parts[1]) else {
            return problem("must be COUNT/SECONDS, e.g. \(example), or off")
        }
        var faults: [String] = []
        if !counts.contains(count) {
            faults.append(
                "the count must be from \(counts.lowerBound) to \(counts.upperBound) (off turns the \(noun) off)")
        }
        if !seconds.contains(period) {
            faults.append("the seconds must be from \(seconds.lowerBound) to \(seconds.upperBound)")
        }
        guard faults.isEmpty else { return problem(faults.joined(separator: "; ")) }
        return .success((count, period))
    }
}

/// Where `/metrics` is served when it has an address of its own.
public struct MetricsAddress: Sendable, Hashable {
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int
}
