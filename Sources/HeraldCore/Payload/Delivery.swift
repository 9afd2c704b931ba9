import Foundation

/// One ready-to-send push for one device: a row of the delivery queue.
public struct Delivery: Sendable, Hashable, Codable {
    /// What the push does on the device.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A user-visible notification (single event or digest).
        case alert
        /// No visible alert: badge updates and sync hints.
        case background
        /// Removes notifications by collapse id / tag, carrying the new badge.
        case withdraw
    }

    public var platform: Device.Platform
    public var kind: Kind
    public var userId: String
    public var installationId: String
    /// APNs token, FCM token, Web Push endpoint or WNS channel URI.
    public var token: String
    public var environment: Device.Environment
    /// Platform request headers (APNs `apns-*`, Web Push `TTL`/`Urgency`/`Topic`, WNS `X-WNS-*`).
    public var headers: [String: String]
    /// The request body: JSON (APNs, FCM v1 request, Web Push plaintext) or XML (WNS toast).
    public var body: [UInt8]
    public var collapseId: String?
    /// APNs scale for every platform: 10 delivers now, 5 lets the platform save power. Background is always 5.
    public var priority: Int
    public var expiresAt: Date
    /// Not before this instant (quiet-hours deferral, silent-push budget).
    public var availableAt: Date
    public var notificationId: String?
    public var eventId: String?
    /// When set, an unsent queued delivery with the same key is replaced by this one instead of adding a row.
    public var coalesceKey: String?

    /// Creates a delivery.
    public init(
        platform: Device.Platform, kind: Kind, userId: String, installationId: String, token: String,
        environment: Device.Environment, headers: [String: String], body: [UInt8], collapseId: String?,
        priority: Int, expiresAt: Date, availableAt: Date, notificationId: String?, eventId: String?,
        coalesceKey: String?
    ) {
        self.platform = platform
        self.kind = kind
        self.userId = userId
        self.installationId = installationId
        self.token = token
        self.environment = environment
        self.headers = headers
        self.body = body
        self.collapseId = collapseId
        self.priority = priority
        self.expiresAt = expiresAt
        self.availableAt = availableAt
        self.notificationId = notificationId
        self.eventId = eventId
        self.coalesceKey = coalesceKey
    }

    /// The body as text (always valid UTF-8: the builders only write strings).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    enum CodingKeys: String, CodingKey {
        case platform, kind, token, environment, headers, body, priority
        case userId = "user_id"
        case installationId = "installation_id"
        case collapseId = "collapse_id"
        case expiresAt = "expires_at"
        case availableAt = "available_at"
        case notificationId = "notification_id"
        case eventId = "event_id"
        case coalesceKey = "coalesce_key"
    }

    /// Decodes a delivery whose body is stored as text.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        platform = try c.decode(Device.Platform.self, forKey: .platform)
        kind = try c.decode(Kind.self, forKey: .kind)
        userId = try c.decode(String.self, forKey: .userId)
        installationId = try c.decode(String.self, forKey: .installationId)
        token = try c.decode(String.self, forKey: .token)
        environment = try c.decode(Device.Environment.self, forKey: .environment)
        headers = try c.decode([String: String].self, forKey: .headers)
        body = Array(try c.decode(String.self, forKey: .body).utf8)
        collapseId = try c.decodeIfPresent(String.self, forKey: .collapseId)
        priority = try c.decode(Int.self, forKey: .priority)
        expiresAt = try c.decode(Date.self, forKey: .expiresAt)
        availableAt = try c.decode(Date.self, forKey: .availableAt)
        notificationId = try c.decodeIfPresent(String.self, forKey: .notificationId)
        eventId = try c.decodeIfPresent(String.self, forKey: .eventId)
        coalesceKey = try c.decodeIfPresent(String.self, forKey: .coalesceKey)
    }

    /// Encodes the delivery with its body as text.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(platform, forKey: .platform)
        try c.encode(kind, forKey: .kind)
        try c.encode(userId, forKey: .userId)
        try c.encode(installationId, forKey: .installationId)
        try c.encode(token, forKey: .token)
        try c.encode(environment, forKey: .environment)
        try c.encode(headers, forKey: .headers)
        try c.encode(bodyText, forKey: .body)
        try c.encodeIfPresent(collapseId, forKey: .collapseId)
        try c.encode(priority, forKey: .priority)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(availableAt, forKey: .availableAt)
        try c.encodeIfPresent(notificationId, forKey: .notificationId)
        try c.encodeIfPresent(eventId, forKey: .eventId)
        try c.encodeIfPresent(coalesceKey, forKey: .coalesceKey)
    }
}
