import Foundation

/// One app installation able to receive pushes.
public struct Device: Sendable, Hashable, Codable {
    /// The most active devices a user holds: every event fans out to each of them, so one user's registrations
    /// cannot multiply the work of every push sent to them.
    public static let maxPerUser = 100

    /// Whether a user may hold `activeDevices` active devices at once: the one cap that a registration, a client's
    /// own registration and a bulk import each ask about.
    public static func capAllows(activeDevices: Int) -> Bool { activeDevices <= maxPerUser }

    /// The push service a device is reached through.
    public enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
        case apns
        case fcm
        case webpush
        case wns
    }

    /// Which APNs endpoint a token belongs to.
    public enum Environment: String, Sendable, Hashable, Codable, CaseIterable {
        case production
        case sandbox
    }

    /// The keys a Web Push subscription carries besides its endpoint.
    public struct WebPushKeys: Sendable, Hashable, Codable {
        public var p256dh: String
        public var auth: String

        /// Creates subscription keys.
        public init(p256dh: String, auth: String) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public var installationId: String
    public var userId: String
    public var platform: Platform
    /// APNs hex token, FCM registration token, Web Push endpoint URL or WNS channel URI.
    public var token: String
    public var webPushKeys: WebPushKeys?
    public var environment: Environment
    /// Bundle id (APNs topic), FCM project or web app id.
    public var appId: String
    public var locale: String?
    public var appVersion: String?
    /// Whether the app composes its own notification after a wake.
    public var appBuildsNotifications: Bool
    public var active: Bool
    public var lastRegisteredAt: Date
    /// The push tokens of the iOS Live Activities running on this device, by the app's activity id (APNs only).
    public var liveActivityTokens: [String: String] = [:]

    /// Creates a device.
    public init(
        installationId: String,
        userId: String,
        platform: Platform,
        token: String,
        webPushKeys: WebPushKeys? = nil,
        environment: Environment = .production,
        appId: String,
        locale: String? = nil,
        appVersion: String? = nil,
        appBuildsNotifications: Bool = false,
        active: Bool = true,
        lastRegisteredAt: Date
    ) {
        self.installationId = installationId
        self.userId = userId
        self.platform = platform
        self.token = token
        self.webPushKeys = webPushKeys
        self.environment = environment
        self.appId = appId
        self.locale = locale
        self.appVersion = appVersion
        self.appBuildsNotifications = appBuildsNotifications
        self.active = active
        self.lastRegisteredAt = lastRegisteredAt
    }

    enum CodingKeys: String, CodingKey {
        case platform, token, environment, locale, active
        case installationId = "installation_id"
        case userId = "user_id"
        case webPushKeys = "web_push_keys"
        case appId = "app_id"
        case appVersion = "app_version"
        case appBuildsNotifications = "app_builds_notifications"
        case lastRegisteredAt = "last_registered_at"
    }
}
