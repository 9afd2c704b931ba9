import HeraldCore

/// A user read items or a thread, on one of their devices.
struct ReadRequest: Sendable, Hashable {
    var userId: String
    var itemIds: [String]
    var threadId: String?
    /// The installation the read happened on; it is not sent a withdrawal.
    var device: String?
    /// Notifications read by their id (an app's `opened` receipt for a notification that names no item).
    var notificationIds: [String] = []
}

extension ReadRequest {
    /// The read an `item.read` event asks for: `item_id` plus `data.item_ids`, or its `thread_id`, on the device
    /// named by `data.device`.
    init(readEvent event: HeraldCore.Event, userId: String) {
        var ids = event.itemId.map { [$0] } ?? []
        if case .array(let items)? = event.data["item_ids"] {
            for case .string(let item) in items where !ids.contains(item) { ids.append(item) }
        }
        var device: String?
        if case .string(let name)? = event.data["device"] { device = name }
        self.init(userId: userId, itemIds: ids, threadId: event.threadId, device: device)
    }
}
