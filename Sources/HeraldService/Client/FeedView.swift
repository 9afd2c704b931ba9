import Foundation
import HeraldCore
import HeraldPostgres

/// The JSON of `GET /v1/me/feed`. Optional members are written as `null` so every documented member is present.
struct FeedView: Encodable {
    struct Item: Encodable {
        var notificationId: String
        var cursor: String
        var category: String
        var title: String?
        var body: String?
        var threadId: String?
        var itemId: String?
        var createdAt: Date
        var read: Bool
        var readAt: Date?
        /// The image the event's alert carries, as its push has it (`FeedText.media`).
        var imageURL: String? = nil
        /// Where a tap on the event's alert leads, as its push has it.
        var link: String? = nil
        /// The event's ciphertext for the installation the feed was asked for (`installation_id`).
        var ciphertext: String? = nil

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(notificationId, forKey: .notificationId)
            try container.encode(cursor, forKey: .cursor)
            try container.encode(category, forKey: .category)
            try container.encode(title, forKey: .title)
            try container.encode(body, forKey: .body)
            try container.encode(threadId, forKey: .threadId)
            try container.encode(itemId, forKey: .itemId)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(read, forKey: .read)
            try container.encode(readAt, forKey: .readAt)
            try container.encode(imageURL, forKey: .imageURL)
            try container.encode(link, forKey: .link)
            try container.encode(ciphertext, forKey: .ciphertext)
        }

        enum CodingKeys: String, CodingKey {
            case cursor, category, title, body, read, ciphertext, link
            case imageURL = "image_url"
            case notificationId = "notification_id"
            case threadId = "thread_id"
            case itemId = "item_id"
            case createdAt = "created_at"
            case readAt = "read_at"
        }
    }

    var items: [Item]
    var nextCursor: String
    var hasMore: Bool
    var unreadCount: Int
    var badge: Int?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
        try container.encode(hasMore, forKey: .hasMore)
        try container.encode(unreadCount, forKey: .unreadCount)
        try container.encode(badge, forKey: .badge)
    }

    enum CodingKeys: String, CodingKey {
        case items, badge
        case nextCursor = "next_cursor"
        case hasMore = "has_more"
        case unreadCount = "unread_count"
    }
}
