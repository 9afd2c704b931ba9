/// The global knobs of the decision policy, validated once at start-up by the service.
public struct DeciderConfig: Sendable, Hashable {
    /// The per-user budget over all categories; `nil` means none. A push over it is `rate_limited` (folded into
    /// the burst's digest when its category collapses); required categories and those that do not count toward
    /// it are spared.
    public var userRateLimit: Category.RateLimitRule?
    /// Background pushes (withdrawals) allowed per device per hour, at least 1 (`TokenBucket` holds at least one
    /// token); the excess is coalesced into one later push, never dropped (`SilentBudget`).
    public var silentPushesPerHour: Int
    /// The window of the digest a user gets when their preference is `digest`.
    public var digestWindowSeconds: Int
    /// How long a withdrawal or badge push stays worth sending.
    public var backgroundTTLSeconds: Int

    /// Creates a configuration; the defaults follow platform guidance (2–3 background pushes per hour).
    public init(
        userRateLimit: Category.RateLimitRule? = Category.RateLimitRule(
            count: 60, windowSeconds: 3_600),
        silentPushesPerHour: Int = 3,
        digestWindowSeconds: Int = 3_600,
        backgroundTTLSeconds: Int = 86_400
    ) {
        self.userRateLimit = userRateLimit
        self.silentPushesPerHour = silentPushesPerHour
        self.digestWindowSeconds = digestWindowSeconds
        self.backgroundTTLSeconds = backgroundTTLSeconds
    }
}
