/// An `item.read` event: an upstream service saying that a user read items, or a thread, in the product's own UI.
/// It needs no category, reaches no topic's subscribers, and is applied for each user it names as a read on the
/// installation it names.
public enum ReadEvent {
    /// The category id that makes an event a read.
    public static let categoryId = "item.read"

    /// Whether `event` is a read.
    public static func isRead(_ event: Event) -> Bool { event.category == categoryId }

    /// What makes a read event invalid: it names neither an item nor a thread, so it could read nothing.
    public static func problems(_ event: Event) -> [FieldError] {
        guard isRead(event), event.itemId == nil, event.threadId == nil else { return [] }
        return [FieldError(pointer: "/item_id", message: "a read names an item_id or a thread_id")]
    }

    /// The read `event` asks for on behalf of `userId`: `item_id` and then `data.item_ids`, or its `thread_id`, on
    /// the installation `data.device` names.
    public static func scope(_ event: Event, userId: String) -> ReadScope {
        var ids = event.itemId.map { [$0] } ?? []
        if case .array(let items)? = event.data["item_ids"] {
            for case .string(let item) in items where !ids.contains(item) { ids.append(item) }
        }
        var device: String?
        if case .string(let name)? = event.data["device"] { device = name }
        return ReadScope(userId: userId, itemIds: ids, threadId: event.threadId, originInstallationId: device)
    }

    /// What a read event's decision for one user records: `read` and how many unread items it covered, or
    /// `suppressed.unknown_user` when no such user exists (nothing was read).
    public static func decision(userExists: Bool, itemsRead: Int) -> (outcome: Outcome, detail: String?) {
        userExists ? (.read, "items_read=\(itemsRead)") : (.suppressedUnknownUser, nil)
    }
}
