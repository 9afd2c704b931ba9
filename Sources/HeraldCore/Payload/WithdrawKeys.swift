/// Which collapse ids a withdrawal can carry: the newest ones that fit, so the payload always stays in its limit.
enum WithdrawKeys {
    /// Room for `,"sync":true` (or its string form in FCM data) when ids had to be left out.
    static let syncFlagBytes = 16

    /// The newest ids of `ids` whose summed `cost` (bytes each adds, separator included) fits in `budget`.
    static func newestFitting(_ ids: [String], budget: Int, cost: (String) -> Int) -> [String] {
        var kept: [String] = []
        var used = 0
        for id in ids.reversed() {
            let bytes = cost(id)
            if used + bytes > budget { break }
            used += bytes
            kept.append(id)
        }
        return kept.reversed()
    }

    /// Cost of one id as an element of a JSON array: its escaped form plus a comma.
    static func arrayElementCost(_ id: String) -> Int { JSONValue.encodedLength(of: id) + 1 }

    /// Fits `content.withdrawIds` into `limit` given a document builder; returns the ids kept and whether some
    /// were left out (the app must then reconcile from the feed).
    static func fit(
        _ content: PushContent, limit: Int, cost: (String) -> Int, document: (PushContent) -> JSONValue
    ) -> (ids: [String], truncated: Bool) {
        var bare = content
        bare.withdrawIds = []
        let baseSize = document(bare).serialized().count
        let kept = newestFitting(
            content.withdrawIds, budget: limit - baseSize - syncFlagBytes, cost: cost)
        return (kept, kept.count < content.withdrawIds.count)
    }

    /// The withdrawal body of `content`: the newest ids that fit in `limit`, and `sync` passed to `document` when
    /// some were left out. The caller decides what a body still over the limit means.
    static func body(
        _ content: PushContent, limit: Int, cost: (String) -> Int,
        document: (_ content: PushContent, _ sync: Bool) -> JSONValue
    ) -> [UInt8] {
        let fit = fit(content, limit: limit, cost: cost, document: { document($0, false) })
        var fitted = content
        fitted.withdrawIds = fit.ids
        return document(fitted, fit.truncated).serialized()
    }

    /// `document` with `"sync": true` beside its other top-level keys when `sync` (APNs, Web Push and WNS raw).
    static func flaggingSync(_ document: JSONValue, _ sync: Bool) -> JSONValue {
        guard sync, case .object(var root) = document else { return document }
        root["sync"] = .bool(true)
        return .object(root)
    }
}
