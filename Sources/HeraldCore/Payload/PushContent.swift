import Foundation

/// What one push says, before any platform's envelope: the decider fills it, the platform builders wrap it.
public struct PushContent: Sendable, Hashable {
    /// Why the push exists; decides push type, priority and which fields the payload carries.
    public enum Purpose: String, Sendable, Hashable, Codable, CaseIterable {
        /// One event's notification.
        case alert
        /// A collapsed burst's summary, replacing the first notification in place.
        case digest
        /// Remove notifications named by collapse id (read elsewhere), with the new badge.
        case withdraw
        /// Only the new badge.
        case badge

        /// The queue kind of a push with this purpose.
        public var deliveryKind: Delivery.Kind {
            switch self {
            case .alert, .digest: return .alert
            case .withdraw: return .withdraw
            case .badge: return .background
            }
        }
    }

    public var purpose: Purpose
    /// The delivery mode after the device's capability is applied (an app that cannot build gets `system`).
    public var mode: Category.DeliveryMode
    public var notificationId: String
    public var eventId: String?
    public var categoryId: String
    public var title: String?
    public var body: String?
    /// The absolute unread count; `nil` when the user turned the badge off.
    public var badge: Int?
    /// Quiet hours said: no sound, passive.
    public var silenced: Bool
    public var interruptionLevel: Category.InterruptionLevel
    public var priority: Category.Priority
    public var threadId: String?
    public var apnsCategory: String?
    public var androidChannelId: String?
    public var collapseId: String?
    public var itemId: String?
    /// Events summarised by a digest.
    public var count: Int?
    /// Collapse ids to remove (withdraw).
    public var withdrawIds: [String]
    public var expiresAt: Date
    public var availableAt: Date
    public var coalesceKey: String?
    /// The feed cursor at this notification, for app-built and combined notifications: the woken app fetches the
    /// feed after its own stored cursor when this one is newer.
    public var cursor: String? = nil
    /// The image the device downloads before it shows the notification (`https://`); alerts only.
    public var imageURL: String? = nil
    /// Where a tap leads: an `https://` address or the app's own deep link; alerts only.
    public var link: String? = nil
    /// Where iOS ranks the notification in its Scheduled Summary, 0 to 1 (the category's `relevance_score`).
    public var relevanceScore: Double? = nil
    /// The event's end-to-end encrypted content for this device, which the app decrypts (`enc`); alerts only.
    public var ciphertext: String? = nil
    /// The ciphertext did not fit the platform's limit: the app pulls it from the feed (`fetch: true`).
    public var fetch = false

    /// Creates push content; optional parts default to absent.
    public init(
        purpose: Purpose, mode: Category.DeliveryMode = .system, notificationId: String,
        eventId: String? = nil,
        categoryId: String, title: String? = nil, body: String? = nil, badge: Int? = nil,
        silenced: Bool = false,
        interruptionLevel: Category.InterruptionLevel = .active, priority: Category.Priority = .normal,
        threadId: String? = nil, apnsCategory: String? = nil, androidChannelId: String? = nil,
        collapseId: String? = nil, itemId: String? = nil, count: Int? = nil, withdrawIds: [String] = [],
        expiresAt: Date, availableAt: Date, coalesceKey: String? = nil
    ) {
        self.purpose = purpose
        self.mode = mode
        self.notificationId = notificationId
        self.eventId = eventId
        self.categoryId = categoryId
        self.title = title
        self.body = body
        self.badge = badge
        self.silenced = silenced
        self.interruptionLevel = interruptionLevel
        self.priority = priority
        self.threadId = threadId
        self.apnsCategory = apnsCategory
        self.androidChannelId = androidChannelId
        self.collapseId = collapseId
        self.itemId = itemId
        self.count = count
        self.withdrawIds = withdrawIds
        self.expiresAt = expiresAt
        self.availableAt = availableAt
        self.coalesceKey = coalesceKey
    }

    /// Whether the push shows something to the user.
    public var isVisible: Bool { purpose == .alert || purpose == .digest }

    /// The image of a visible push.
    var visibleImage: String? { isVisible ? imageURL : nil }

    /// The ciphertext of a visible push in a mode whose app runs first (never in `system` mode).
    var visibleCiphertext: String? { isVisible && mode.carriesCiphertext ? ciphertext : nil }

    /// Whether a visible push tells the app to pull its ciphertext from the feed (never in `system` mode).
    var visibleFetch: Bool { isVisible && mode.carriesCiphertext && fetch }

    /// The link of a visible push.
    var visibleLink: String? { isVisible ? link : nil }

    /// The link of a visible push when a browser can open it on a click: an `https://` address, never an app's
    /// deep link (FCM's `webpush.fcm_options.link`, declarative Web Push's `navigate`).
    var visibleWebLink: String? {
        guard let link = visibleLink, link.hasPrefix("https://") else { return nil }
        return link
    }

    /// Whether the app's notification service extension changes the notification before it is shown: the app
    /// builds it (`app`, `combined`), or there is an image to download.
    var isMutable: Bool { mode != .system || visibleImage != nil }

    /// Whether the collapse id names a burst (a category's collapse template or a digest preference) rather than
    /// this one notification, so a digest will replace the push in place.
    ///
    /// A digest always belongs to a burst. A single alert of a category that does not collapse uses its own
    /// notification id as its collapse id; the first alert of a burst uses the burst's id instead.
    public var collapsesBurst: Bool {
        guard let collapseId, !collapseId.isEmpty else { return false }
        switch purpose {
        case .digest: return true
        case .alert: return collapseId != notificationId
        case .withdraw, .badge: return false
        }
    }

    /// The interruption level actually sent: quiet hours make it passive.
    public var effectiveInterruptionLevel: Category.InterruptionLevel {
        silenced ? .passive : interruptionLevel
    }

    /// Whether the push stays quiet (no sound): quiet hours silenced it or its level is passive, on every platform.
    public var isQuiet: Bool { silenced || interruptionLevel == .passive }

    /// Whether the alert should interrupt now: high priority, audible and not passive.
    public var isUrgent: Bool { isVisible && priority == .high && !isQuiet }

    /// Seconds from `availableAt` to `expiresAt`, never negative.
    public var ttlSeconds: Int {
        max(0, Int(expiresAt.timeIntervalSince(availableAt).rounded(.down)))
    }

    /// Herald's own keys, beside the platform's: version, ids and kind, so the app can act without parsing text.
    public var heraldKeys: [String: JSONValue] {
        var keys: [String: JSONValue] = [
            "v": .int(1), "kind": .string(purpose.rawValue), "nid": .string(notificationId),
            "cat": .string(categoryId),
        ]
        if let itemId { keys["item"] = .string(itemId) }
        if let threadId { keys["thread"] = .string(threadId) }
        if let collapseId, isVisible { keys["cid"] = .string(collapseId) }
        if let count { keys["count"] = .int(count) }
        if let cursor, isVisible, mode != .system { keys["cursor"] = .string(cursor) }
        if let ciphertext = visibleCiphertext { keys["enc"] = .string(ciphertext) }
        if visibleFetch { keys["fetch"] = .bool(true) }
        return keys
    }
}
