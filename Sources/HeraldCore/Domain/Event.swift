import Foundation

/// Something that happened upstream and may be worth telling people about.
public struct Event: Sendable, Hashable, Codable {
    /// Who an event is for: explicit users and/or the subscribers of a topic.
    public struct Recipients: Sendable, Hashable, Codable {
        public var userIds: [String]
        public var topic: String?

        /// Creates a recipient list.
        public init(userIds: [String] = [], topic: String? = nil) {
            self.userIds = userIds
            self.topic = topic
        }

        enum CodingKeys: String, CodingKey {
            case userIds = "user_ids"
            case topic
        }

        /// Decodes recipients; a missing `user_ids` means none.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            userIds = try c.decodeIfPresent([String].self, forKey: .userIds) ?? []
            topic = try c.decodeIfPresent(String.self, forKey: .topic)
        }
    }

    /// The service that published the event (a slug); ids are unique per source.
    public var source: String
    /// The upstream id, unique within its source; events are idempotent by (source, id).
    public var id: String
    /// The category id.
    public var category: String
    public var recipients: Recipients
    /// The user who caused the event; never notified about it.
    public var actor: String?
    /// Display name of the actor for templates and digests ("Asha").
    public var actorName: String?
    public var threadId: String?
    /// The item the event is about; reads name items.
    public var itemId: String?
    public var data: [String: JSONValue]
    public var occurredAt: Date
    /// The event's own collapse key template, in place of its category's (the window stays the category's).
    public var collapseKey: String? = nil
    /// An image the device downloads before it shows the notification (`https://` only), in place of the
    /// category's `image_template`.
    public var imageURL: String? = nil
    /// Where a tap leads (an app's deep link or an `https://` address), in place of the category's
    /// `link_template`.
    public var link: String? = nil
    /// End-to-end encrypted content for the app to decrypt, one for every device or one per installation.
    public var ciphertext: Ciphertext? = nil
    /// For a `live_activity` category: the activity it updates or ends; its content state is `data`.
    public var liveActivity: LiveActivityUpdate? = nil

    /// Creates an event.
    public init(
        source: String = "",
        id: String,
        category: String,
        recipients: Recipients,
        actor: String? = nil,
        actorName: String? = nil,
        threadId: String? = nil,
        itemId: String? = nil,
        data: [String: JSONValue] = [:],
        occurredAt: Date,
        collapseKey: String? = nil,
        imageURL: String? = nil,
        link: String? = nil,
        ciphertext: Ciphertext? = nil,
        liveActivity: LiveActivityUpdate? = nil
    ) {
        self.source = source
        self.id = id
        self.category = category
        self.recipients = recipients
        self.actor = actor
        self.actorName = actorName
        self.threadId = threadId
        self.itemId = itemId
        self.data = data
        self.occurredAt = occurredAt
        self.collapseKey = collapseKey
        self.imageURL = imageURL
        self.link = link
        self.ciphertext = ciphertext
        self.liveActivity = liveActivity
    }

    enum CodingKeys: String, CodingKey {
        case source, id, category, recipients, actor, data
        case actorName = "actor_name"
        case threadId = "thread_id"
        case itemId = "item_id"
        case occurredAt = "occurred_at"
        case collapseKey = "collapse_key"
        case imageURL = "image_url"
        case link, ciphertext
        case liveActivity = "live_activity"
    }

    /// Decodes an event; `data` may be omitted.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        source = try c.decodeIfPresent(String.self, forKey: .source) ?? ""
        id = try c.decode(String.self, forKey: .id)
        category = try c.decode(String.self, forKey: .category)
        recipients = try c.decode(Recipients.self, forKey: .recipients)
        actor = try c.decodeIfPresent(String.self, forKey: .actor)
        actorName = try c.decodeIfPresent(String.self, forKey: .actorName)
        threadId = try c.decodeIfPresent(String.self, forKey: .threadId)
        itemId = try c.decodeIfPresent(String.self, forKey: .itemId)
        data = try c.decodeIfPresent([String: JSONValue].self, forKey: .data) ?? [:]
        occurredAt = try c.decode(Date.self, forKey: .occurredAt)
        collapseKey = try c.decodeIfPresent(String.self, forKey: .collapseKey)
        imageURL = try c.decodeIfPresent(String.self, forKey: .imageURL)
        link = try c.decodeIfPresent(String.self, forKey: .link)
        ciphertext = try c.decodeIfPresent(Ciphertext.self, forKey: .ciphertext)
        liveActivity = try c.decodeIfPresent(LiveActivityUpdate.self, forKey: .liveActivity)
    }
}

extension Event {
    /// The event's identity across sources, `source/id` (a source is a slug, so the slash cannot be ambiguous): the
    /// notification, delivery and digest ids derive from it, and decisions and bursts name their events by it.
    public var reference: String { source.isEmpty ? id : source + "/" + id }
}
