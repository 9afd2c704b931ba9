/// What a user read, on one device: items, a thread, or notifications by id. The shell loads the user's unread
/// decisions by these keys, and the unread ones sharing their collapse ids; `select` alone decides which of them the
/// read covers and which collapse ids it withdraws.
public struct ReadScope: Sendable, Hashable {
    public var userId: String
    public var itemIds: [String]
    public var threadId: String?
    /// Notifications read by their own id (an app's `opened` receipt for a notification that names no item).
    public var notificationIds: [String]
    /// The device the read happened on; it already knows, so it gets no withdrawal.
    public var originInstallationId: String?

    /// Creates a read scope.
    public init(
        userId: String, itemIds: [String], threadId: String?, notificationIds: [String] = [],
        originInstallationId: String? = nil
    ) {
        self.userId = userId
        self.itemIds = itemIds
        self.threadId = threadId
        self.notificationIds = notificationIds
        self.originInstallationId = originInstallationId
    }

    /// The candidates the read covers: unread notifications of one of its items, of its thread, or named by id.
    /// Each covered one counts once, which is what keeps a repeated read from lowering the count again.
    ///
    /// `candidates` may also hold unread notifications the read does not cover that share a collapse id with the
    /// covered ones (the rest of a burst, say): on the device the notification of that collapse id (a digest)
    /// still stands for them, so it is withdrawn only when none of them is left unread.
    public func select<Key>(_ candidates: [ReadCandidate<Key>]) -> ReadSelection<Key> {
        let items = Set(itemIds)
        let ids = Set(notificationIds)
        var covered: [ReadCandidate<Key>] = []
        var standing: Set<String> = []
        for candidate in candidates where !candidate.isRead {
            guard let notificationId = candidate.notificationId else { continue }
            let byItem = candidate.itemId.map(items.contains) ?? false
            let byThread = threadId != nil && candidate.threadId == threadId
            if byItem || byThread || ids.contains(notificationId) {
                covered.append(candidate)
            } else if let collapseId = candidate.collapseId {
                standing.insert(collapseId)
            }
        }
        var collapseIds: [String] = []
        var seen = standing
        for id in covered.compactMap(\.collapseId) where seen.insert(id).inserted { collapseIds.append(id) }
        let itemsRead = covered.filter(\.countsUnread).count
        var notified: Set<String> = []
        let notificationIds = covered.compactMap(\.notificationId).filter { notified.insert($0).inserted }
        var notice =
            covered.isEmpty
            ? nil
            : ReadNotice(
                userId: userId, collapseIds: collapseIds, itemsRead: itemsRead,
                originInstallationId: originInstallationId, notificationIds: notificationIds)
        notice?.collapsed = covered.compactMap { candidate in
            guard let notificationId = candidate.notificationId, let collapseId = candidate.collapseId,
                let categoryId = candidate.categoryId, let decidedAt = candidate.decidedAt
            else { return nil }
            return ReadNotice.CollapsedRead(
                notificationId: notificationId, collapseId: collapseId, categoryId: categoryId, decidedAt: decidedAt)
        }
        return ReadSelection(covered: covered, collapseIds: collapseIds, itemsRead: itemsRead, notice: notice)
    }
}
