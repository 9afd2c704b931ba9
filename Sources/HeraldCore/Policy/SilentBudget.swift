import Foundation

/// One device's budget for background pushes (withdrawals, sync hints): Apple advises two or three an hour.
///
/// Excess is never dropped and never upgraded: it is coalesced into one pending push queued for the moment the
/// next token is available; later requests merge into that pending push until it goes out.
public struct SilentBudget: Sendable, Hashable, Codable {
    /// A background push waiting for the budget; the queue row is found again by `coalesceKey`.
    public struct Pending: Sendable, Hashable, Codable {
        public var availableAt: Date
        public var collapseIds: [String]
        public var coalesceKey: String

        enum CodingKeys: String, CodingKey {
            case availableAt = "available_at"
            case collapseIds = "collapse_ids"
            case coalesceKey = "coalesce_key"
        }
    }

    /// What to do with a requested background push.
    public enum Action: Sendable, Hashable {
        /// Within budget: queue it for now.
        case sendNow
        /// Over budget: queue (or rewrite) the pending push `coalesceKey` for `availableAt`, carrying `collapseIds`.
        case coalesced(availableAt: Date, collapseIds: [String], coalesceKey: String)
    }

    /// The budget refills over an hour.
    public static let windowSeconds = 3_600

    public var installationId: String
    public var bucket: TokenBucket
    public var pending: Pending?

    /// A fresh budget: `perHour` background pushes per hour.
    public init(installationId: String, perHour: Int, at now: Date) {
        self.installationId = installationId
        self.bucket = TokenBucket(capacity: perHour, windowSeconds: Self.windowSeconds, at: now)
        self.pending = nil
    }

    /// The same budget under a changed allowance: a stored budget follows the configuration, its fill level
    /// carried over and capped by the new capacity; a pending push stays as it is.
    public func adjusted(perHour: Int) -> SilentBudget {
        var budget = self
        budget.bucket = bucket.adjusted(to: Category.RateLimitRule(count: perHour, windowSeconds: Self.windowSeconds))
        return budget
    }

    /// A background push naming `collapseIds` was requested at `now`.
    public mutating func backgroundPushRequested(collapseIds: [String], at now: Date) -> Action {
        if var waiting = pending, waiting.availableAt > now {
            for id in collapseIds where !waiting.collapseIds.contains(id) {
                waiting.collapseIds.append(id)
            }
            pending = waiting
            return .coalesced(
                availableAt: waiting.availableAt, collapseIds: waiting.collapseIds,
                coalesceKey: waiting.coalesceKey)
        }
        // A pending push whose time has come has been claimed by the sender; it no longer absorbs new requests.
        pending = nil
        if bucket.take(at: now) { return .sendNow }
        let availableAt = bucket.reserve(at: now)
        let key = "background:\(installationId):\(Int(availableAt.timeIntervalSince1970.rounded(.up)))"
        pending = Pending(availableAt: availableAt, collapseIds: collapseIds, coalesceKey: key)
        return .coalesced(availableAt: availableAt, collapseIds: collapseIds, coalesceKey: key)
    }

    enum CodingKeys: String, CodingKey {
        case bucket, pending
        case installationId = "installation_id"
    }
}
