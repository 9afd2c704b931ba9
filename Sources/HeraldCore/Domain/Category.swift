import Foundation

/// A notification category: the unit every rule hangs on (preference, quiet hours, rate limit, collapsing, text).
public struct Category: Sendable, Hashable {
    /// Immutable slug, e.g. `chat.message`.
    public var id: String
    public var name: String
    public var description: String
    public var defaultPreference: PreferenceSetting
    /// Security codes and the like: opt-out, digest and mutes do not apply.
    public var required: Bool
    public var deliveryMode: DeliveryMode
    public var priority: Priority
    public var interruptionLevel: InterruptionLevel
    public var quietHours: QuietHoursPolicy
    public var ttlSeconds: Int
    public var collapse: CollapseRule?
    public var rateLimit: RateLimitRule?
    /// Whether its pushes spend, and wait for, the user-wide budget shared by all categories; `required`
    /// categories never do. The category's own `rateLimit` applies either way.
    public var countsTowardUserRateLimit: Bool
    public var countsTowardBadge: Bool
    /// Renders the thread a notification belongs to, e.g. `conversation:{thread_id}`.
    public var threadKeyTemplate: String?
    public var apnsCategory: String?
    public var androidChannelId: String?
    public var defaultLocale: String
    /// Templates keyed by BCP 47 locale tag.
    public var templates: [String: LocalizedTemplates]
    /// Archived categories reject new events.
    public var archived: Bool
    /// Renders the image address of an event that carries none, e.g. `https://cdn.example.com/a/{actor}.png`.
    public var imageTemplate: String?
    /// Renders where a tap leads for an event that names no link, e.g. `chat://t/{thread_id}`.
    public var linkTemplate: String?
    /// How relevant the category's notifications are (0 to 1): orders them inside iOS's Scheduled Summary.
    public var relevanceScore: Double?
    /// What its events become: notifications, or updates of an iOS Live Activity.
    public var kind: Kind = .notification

    /// Creates a category; every rule but the identity has a conservative default.
    public init(
        id: String,
        name: String,
        description: String = "",
        defaultPreference: PreferenceSetting = .on,
        required: Bool = false,
        deliveryMode: DeliveryMode = .system,
        priority: Priority = .normal,
        interruptionLevel: InterruptionLevel = .active,
        quietHours: QuietHoursPolicy = .defer,
        ttlSeconds: Int = 86_400,
        collapse: CollapseRule? = nil,
        rateLimit: RateLimitRule? = nil,
        countsTowardUserRateLimit: Bool = true,
        countsTowardBadge: Bool = true,
        threadKeyTemplate: String? = nil,
        apnsCategory: String? = nil,
        androidChannelId: String? = nil,
        defaultLocale: String = "en",
        templates: [String: LocalizedTemplates] = [:],
        archived: Bool = false,
        imageTemplate: String? = nil,
        linkTemplate: String? = nil,
        relevanceScore: Double? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.defaultPreference = defaultPreference
        self.required = required
        self.deliveryMode = deliveryMode
        self.priority = priority
        self.interruptionLevel = interruptionLevel
        self.quietHours = quietHours
        self.ttlSeconds = ttlSeconds
        self.collapse = collapse
        self.rateLimit = rateLimit
        self.countsTowardUserRateLimit = countsTowardUserRateLimit
        self.countsTowardBadge = countsTowardBadge
        self.threadKeyTemplate = threadKeyTemplate
        self.apnsCategory = apnsCategory
        self.androidChannelId = androidChannelId
        self.defaultLocale = defaultLocale
        self.templates = templates
        self.archived = archived
        self.imageTemplate = imageTemplate
        self.linkTemplate = linkTemplate
        self.relevanceScore = relevanceScore
    }
}

extension Category {
    /// When an event of this category expires: its time to live after it occurred. Nothing of it is sent after.
    public func expiry(of event: Event) -> Date { event.occurredAt + TimeInterval(ttlSeconds) }

    /// The text a notification of this category shows: never nothing, so the category's name is its body when no
    /// template rendered a title or a body.
    public func nonEmptyText(title: String?, body: String?) -> (title: String?, body: String?) {
        title == nil && body == nil ? (nil, name) : (title, body)
    }
}
