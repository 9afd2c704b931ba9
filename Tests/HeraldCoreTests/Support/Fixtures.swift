import Foundation
import HeraldCore

/// Builders for the values most tests need, with everything not under test set to something ordinary.
enum Fixture {
    /// Monday 1 June 2026, 12:00 UTC.
    static let now = instant(2026, 6, 1, 12)

    static let englishTemplates = LocalizedTemplates(
        title: "{actor}", body: "{text}", fallbackBody: "New message",
        digestTitle: "{count} new messages", digestBody: "From {first_actor} and {others} others")

    static func category(
        id: String = "chat.message", mode: Category.DeliveryMode = .system, priority: Category.Priority = .high,
        quietHours: Category.QuietHoursPolicy = .defer, ttl: Int = 86_400, collapse: Category.CollapseRule? = nil,
        rateLimit: Category.RateLimitRule? = nil, required: Bool = false,
        defaultPreference: PreferenceSetting = .on
    ) -> HeraldCore.Category {
        HeraldCore.Category(
            id: id, name: "Chat message", defaultPreference: defaultPreference, required: required,
            deliveryMode: mode, priority: priority, interruptionLevel: .active, quietHours: quietHours,
            ttlSeconds: ttl, collapse: collapse, rateLimit: rateLimit, threadKeyTemplate: "conversation:{thread_id}",
            apnsCategory: "MESSAGE", androidChannelId: "messages", defaultLocale: "en",
            templates: [
                "en": englishTemplates,
                "pl": LocalizedTemplates(
                    title: "{actor}", body: "Wiadomość: {text}", fallbackBody: "Nowa wiadomość",
                    digestTitle: "{count} nowych wiadomości", digestBody: "Od {first_actor}"),
            ])
    }

    static func device(
        _ id: String, user: String = "u1", platform: Device.Platform = .apns, locale: String? = nil,
        appBuilds: Bool = false, active: Bool = true
    ) -> Device {
        let token: String
        switch platform {
        case .apns: token = String(repeating: "ab", count: 32)
        case .fcm: token = "fcm-token-" + id
        case .webpush: token = "https://push.example.test/send/" + id
        case .wns: token = "https://wns.example.test/?token=" + id
        }
        return Device(
            installationId: id, userId: user, platform: platform, token: token,
            webPushKeys: platform == .webpush ? .init(p256dh: "key", auth: "auth") : nil, environment: .production,
            appId: "com.example.chat", locale: locale, appBuildsNotifications: appBuilds, active: active,
            lastRegisteredAt: instant(2026, 1, 1))
    }

    static func state(
        _ user: String = "u1", devices: [Device]? = nil, preference: PreferenceSetting? = nil, mutes: [Mute] = [],
        unread: Int = 0, quietHours: QuietHours? = nil, zone: String? = "UTC", badge: Bool = true,
        locale: String? = "en"
    ) -> RecipientState {
        RecipientState(
            profile: UserProfile(id: user, locale: locale, timeZone: zone, quietHours: quietHours, badge: badge),
            preference: preference, mutes: mutes, devices: devices ?? [device("\(user)-phone", user: user)],
            unreadCount: unread)
    }

    static func event(
        _ id: String = "e1", users: [String] = ["u1"], actor: String? = "sender", actorName: String? = "Asha",
        thread: String? = "42",
        item: String? = nil, occurredAt: Date = now, text: String = "Hello"
    ) -> Event {
        Event(
            id: id, category: "chat.message", recipients: .init(userIds: users), actor: actor, actorName: actorName,
            threadId: thread, itemId: item ?? "item-\(id)", data: ["text": .string(text)], occurredAt: occurredAt)
    }

    static func decider(_ config: DeciderConfig = DeciderConfig(userRateLimit: nil)) -> Decider {
        Decider(config: config, zones: TestZones(), renderer: TestRenderer())
    }

    /// Parses JSON bytes with Foundation, as an independent check that Herald's writer is valid.
    static func parse(_ bytes: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }
}
