import Foundation

/// What one Live Activity push says, before APNs' envelope: the decider fills it from the event and its own clock.
public struct LiveActivityContent: Sendable, Hashable {
    public var notificationId: String
    public var eventId: String?
    public var categoryId: String
    public var update: LiveActivityUpdate
    /// The activity's new `ContentState`: the event's `data`, as the upstream service sent it.
    public var contentState: [String: JSONValue]
    /// When Herald decided the push, from the service's clock: the device keeps the newest update by it.
    public var timestamp: Date
    public var priority: Category.Priority
    /// Orders the app's activities among each other (any number; APNs takes it as it is for Live Activities).
    public var relevanceScore: Double?
    public var expiresAt: Date
    public var availableAt: Date

    /// Creates Live Activity content.
    public init(
        notificationId: String, eventId: String?, categoryId: String, update: LiveActivityUpdate,
        contentState: [String: JSONValue], timestamp: Date, priority: Category.Priority = .normal,
        relevanceScore: Double? = nil, expiresAt: Date, availableAt: Date
    ) {
        self.notificationId = notificationId
        self.eventId = eventId
        self.categoryId = categoryId
        self.update = update
        self.contentState = contentState
        self.timestamp = timestamp
        self.priority = priority
        self.relevanceScore = relevanceScore
        self.expiresAt = expiresAt
        self.availableAt = availableAt
    }
}

/// The APNs request of a Live Activity update or end, by Apple's rules: push type `liveactivity` to the topic
/// `<bundle>.push-type.liveactivity`, sent to the activity's own push token; `aps` carries `timestamp`, `event`,
/// `content-state` and, when given, `stale-date`, `dismissal-date` and `relevance-score`; Herald's identifiers ride
/// beside `aps`.
///
/// Priority is 10 only for a `high` category: every priority-10 push counts against the app's hourly Live
/// Activity budget, and 5 does not.
public enum LiveActivityPayload {
    /// APNs rejects bodies over 4096 bytes.
    public static let maxBodyBytes = 4_096

    /// The topic of Live Activity pushes of the app `bundleId`.
    public static func topic(bundleId: String) -> String { bundleId + ".push-type.liveactivity" }

    /// 10 for a `high` category, else 5.
    public static func priority(for content: LiveActivityContent) -> Int { content.priority == .high ? 10 : 5 }

    /// The request headers for `content` sent to an activity of the app `bundleId` on `installationId`.
    public static func headers(
        for content: LiveActivityContent, bundleId: String, installationId: String
    ) -> [String: String] {
        [
            "apns-push-type": "liveactivity", "apns-topic": topic(bundleId: bundleId),
            "apns-priority": String(priority(for: content)),
            // Never 0: through gorush a 0 is not sent at all and APNs falls back to storing for 30 days.
            "apns-expiration": String(max(1, Int(content.expiresAt.timeIntervalSince1970.rounded(.up)))),
            "apns-id": NotificationIdentity.apnsId(
                notificationId: content.notificationId, installationId: installationId, purpose: .alert),
        ]
    }

    /// The JSON document of `content`.
    public static func document(for content: LiveActivityContent) -> JSONValue {
        var aps: [String: JSONValue] = [
            "content-state": .object(content.contentState), "event": .string(content.update.event.rawValue),
            "timestamp": .int(seconds(content.timestamp)),
        ]
        if let stale = content.update.staleDate { aps["stale-date"] = .int(seconds(stale)) }
        if let dismissal = content.update.dismissalDate { aps["dismissal-date"] = .int(seconds(dismissal)) }
        if let score = content.relevanceScore { aps["relevance-score"] = .double(score) }
        return .object([
            "aps": .object(aps), "activity": .string(content.update.activityId), "cat": .string(content.categoryId),
            "kind": .string("live_activity"), "nid": .string(content.notificationId), "v": .int(1),
        ])
    }

    /// The body, or nil when it exceeds 4096 bytes: a content state cannot be shortened, so ingest bounds it
    /// (`LiveActivityUpdate.maxContentStateBytes`).
    public static func body(for content: LiveActivityContent) -> [UInt8]? {
        let bytes = document(for: content).serialized()
        return bytes.count <= maxBodyBytes ? bytes : nil
    }

    /// The queue row of `content` to the activity push token `token` of `device`; an unsent earlier update of the
    /// same activity on the device is replaced by it (`coalesceKey`), since only the newest state matters.
    public static func delivery(
        for content: LiveActivityContent, to device: Device, token: String, userId: String
    ) -> Delivery? {
        guard let body = body(for: content) else { return nil }
        return Delivery(
            platform: .apns, kind: .alert, userId: userId, installationId: device.installationId, token: token,
            environment: device.environment,
            headers: headers(for: content, bundleId: device.appId, installationId: device.installationId),
            body: body, collapseId: nil, priority: priority(for: content), expiresAt: content.expiresAt,
            availableAt: content.availableAt, notificationId: content.notificationId, eventId: content.eventId,
            coalesceKey: "live_activity:" + device.installationId + ":" + content.update.activityId)
    }

    /// Whole UNIX seconds, rounded down.
    static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }
}
