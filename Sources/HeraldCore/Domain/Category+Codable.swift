/// The category's wire form: snake_case keys; every field but `id` and `name` may be omitted and takes its default.
extension Category: Codable {
    enum CodingKeys: String, CodingKey {
        case id, name, description, required, priority, collapse, templates, archived
        case defaultPreference = "default_preference"
        case deliveryMode = "delivery_mode"
        case interruptionLevel = "interruption_level"
        case quietHours = "quiet_hours"
        case ttlSeconds = "ttl_seconds"
        case rateLimit = "rate_limit"
        case countsTowardUserRateLimit = "counts_toward_user_rate_limit"
        case countsTowardBadge = "counts_toward_badge"
        case threadKeyTemplate = "thread_key_template"
        case apnsCategory = "apns_category"
        case androidChannelId = "android_channel_id"
        case defaultLocale = "default_locale"
        case imageTemplate = "image_template"
        case linkTemplate = "link_template"
        case relevanceScore = "relevance_score"
        case kind
    }

    /// Decodes a category, filling omitted fields with the defaults of `init`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = Category(id: "", name: "")
        let kind = try c.decodeIfPresent(Kind.self, forKey: .kind) ?? .notification
        self.init(
            id: try c.decode(String.self, forKey: .id),
            name: try c.decode(String.self, forKey: .name),
            description: try c.decodeIfPresent(String.self, forKey: .description) ?? defaults.description,
            defaultPreference: try c.decodeIfPresent(PreferenceSetting.self, forKey: .defaultPreference)
                ?? defaults.defaultPreference,
            required: try c.decodeIfPresent(Bool.self, forKey: .required) ?? defaults.required,
            deliveryMode: try c.decodeIfPresent(DeliveryMode.self, forKey: .deliveryMode)
                ?? defaults.deliveryMode,
            priority: try c.decodeIfPresent(Priority.self, forKey: .priority) ?? defaults.priority,
            interruptionLevel: try c.decodeIfPresent(InterruptionLevel.self, forKey: .interruptionLevel)
                ?? defaults.interruptionLevel,
            quietHours: try c.decodeIfPresent(QuietHoursPolicy.self, forKey: .quietHours)
                ?? Category.defaultQuietHours(for: kind),
            ttlSeconds: try c.decodeIfPresent(Int.self, forKey: .ttlSeconds) ?? defaults.ttlSeconds,
            collapse: try c.decodeIfPresent(CollapseRule.self, forKey: .collapse),
            rateLimit: try c.decodeIfPresent(RateLimitRule.self, forKey: .rateLimit),
            countsTowardUserRateLimit: try c.decodeIfPresent(Bool.self, forKey: .countsTowardUserRateLimit)
                ?? defaults.countsTowardUserRateLimit,
            countsTowardBadge: try c.decodeIfPresent(Bool.self, forKey: .countsTowardBadge)
                ?? Category.defaultCountsTowardBadge(for: kind),
            threadKeyTemplate: try c.decodeIfPresent(String.self, forKey: .threadKeyTemplate),
            apnsCategory: try c.decodeIfPresent(String.self, forKey: .apnsCategory),
            androidChannelId: try c.decodeIfPresent(String.self, forKey: .androidChannelId),
            defaultLocale: try c.decodeIfPresent(String.self, forKey: .defaultLocale)
                ?? defaults.defaultLocale,
            templates: try c.decodeIfPresent([String: LocalizedTemplates].self, forKey: .templates)
                ?? [:],
            archived: try c.decodeIfPresent(Bool.self, forKey: .archived) ?? false,
            imageTemplate: try c.decodeIfPresent(String.self, forKey: .imageTemplate),
            linkTemplate: try c.decodeIfPresent(String.self, forKey: .linkTemplate),
            relevanceScore: try c.decodeIfPresent(Double.self, forKey: .relevanceScore)
        )
        self.kind = kind
    }

    /// Encodes every field, absent optionals as omitted keys.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(description, forKey: .description)
        try c.encode(defaultPreference, forKey: .defaultPreference)
        try c.encode(required, forKey: .required)
        try c.encode(deliveryMode, forKey: .deliveryMode)
        try c.encode(priority, forKey: .priority)
        try c.encode(interruptionLevel, forKey: .interruptionLevel)
        try c.encode(quietHours, forKey: .quietHours)
        try c.encode(ttlSeconds, forKey: .ttlSeconds)
        try c.encodeIfPresent(collapse, forKey: .collapse)
        try c.encodeIfPresent(rateLimit, forKey: .rateLimit)
        try c.encode(countsTowardUserRateLimit, forKey: .countsTowardUserRateLimit)
        try c.encode(countsTowardBadge, forKey: .countsTowardBadge)
        try c.encodeIfPresent(threadKeyTemplate, forKey: .threadKeyTemplate)
        try c.encodeIfPresent(apnsCategory, forKey: .apnsCategory)
        try c.encodeIfPresent(androidChannelId, forKey: .androidChannelId)
        try c.encode(defaultLocale, forKey: .defaultLocale)
        try c.encode(templates, forKey: .templates)
        try c.encode(archived, forKey: .archived)
        try c.encodeIfPresent(imageTemplate, forKey: .imageTemplate)
        try c.encodeIfPresent(linkTemplate, forKey: .linkTemplate)
        try c.encodeIfPresent(relevanceScore, forKey: .relevanceScore)
        try c.encode(kind, forKey: .kind)
    }
}
