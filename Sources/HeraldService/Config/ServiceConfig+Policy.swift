import HeraldCore

/// The decision policy's global limits as settings: the budget one user gets over all categories, the background
/// pushes one device gets per hour, and the window of a `digest` preference. Every decider is built from
/// `ServiceConfig.policy`, so what the operator set is what the pipeline and the preview decide with.
extension ServiceConfig {
    /// The bounds of `HERALD_USER_RATE_LIMIT`'s count and seconds.
    static let userRateLimitCounts = 1...1_000_000
    static let userRateLimitSeconds = 1...604_800
    /// At least one: a device's budget is a token bucket, which always holds one token.
    static let silentPushesPerHourRange = 1...3_600
    static let digestWindowSecondsRange = 60...604_800

    /// Reads and checks `HERALD_USER_RATE_LIMIT`, `HERALD_SILENT_PUSHES_PER_HOUR` and `HERALD_DIGEST_WINDOW_SECONDS`.
    mutating func applyPolicy(_ values: [String: String], problems: inout [ConfigProblem]) {
        if let text = values["HERALD_USER_RATE_LIMIT"] {
            switch Self.userRateLimit(text) {
            case .success(let rule): policy.userRateLimit = rule
            case .failure(let problem): problems.append(problem)
            }
        }
        Self.integer(
            values, "HERALD_SILENT_PUSHES_PER_HOUR", Self.silentPushesPerHourRange, &policy.silentPushesPerHour,
            &problems)
        Self.integer(
            values, "HERALD_DIGEST_WINDOW_SECONDS", Self.digestWindowSecondsRange, &policy.digestWindowSeconds,
            &problems)
    }

    /// The user-wide budget `text` names: `COUNT/SECONDS` (`60/3600`), or `off` for none.
    static func userRateLimit(_ text: String) -> Result<Category.RateLimitRule?, ConfigProblem> {
        countPerSeconds(
            text, setting: "HERALD_USER_RATE_LIMIT", counts: userRateLimitCounts, seconds: userRateLimitSeconds,
            example: "60/3600 for 60 pushes an hour", noun: "budget"
        ).map { limit in limit.map { Category.RateLimitRule(count: $0.count, windowSeconds: $0.seconds) } }
    }
}
