/// What Herald knows about a recipient besides preferences, mutes and devices.
public struct UserProfile: Sendable, Hashable, Codable {
    public var id: String
    /// BCP 47 tag; the second step of the locale fallback chain.
    public var locale: String?
    /// IANA zone id, validated against the tz data when written.
    public var timeZone: String?
    public var quietHours: QuietHours?
    /// Whether payloads carry the unread count as the app badge.
    public var badge: Bool

    /// Creates a profile.
    public init(
        id: String, locale: String? = nil, timeZone: String? = nil, quietHours: QuietHours? = nil,
        badge: Bool = true
    ) {
        self.id = id
        self.locale = locale
        self.timeZone = timeZone
        self.quietHours = quietHours
        self.badge = badge
    }

    enum CodingKeys: String, CodingKey {
        case id, locale, badge
        case timeZone = "time_zone"
        case quietHours = "quiet_hours"
    }

    /// The app badge a push or a feed shows for `unread` unread notifications: the count, or nil when the user
    /// has badges off.
    public func appBadge(unread: Int) -> Int? { badge ? unread : nil }

    /// Decodes a profile; `badge` defaults to on.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        locale = try c.decodeIfPresent(String.self, forKey: .locale)
        timeZone = try c.decodeIfPresent(String.self, forKey: .timeZone)
        quietHours = try c.decodeIfPresent(QuietHours.self, forKey: .quietHours)
        badge = try c.decodeIfPresent(Bool.self, forKey: .badge) ?? true
    }
}
