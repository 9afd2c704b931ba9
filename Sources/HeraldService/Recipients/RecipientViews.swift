import Foundation
import HeraldCore
import HeraldPostgres

/// The JSON shapes of users, devices, mutes and preferences. Optional members are written as `null` rather than
/// left out, so every documented member is always present.
enum RecipientViews {
    struct QuietHoursView: Encodable {
        var start: String
        var end: String
        var days: [String]?

        init(_ quietHours: QuietHours) {
            start = quietHours.start.text
            end = quietHours.end.text
            days = quietHours.days.map { $0.sorted().map(\.rawValue) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(start, forKey: .start)
            try container.encode(end, forKey: .end)
            try container.encode(days, forKey: .days)
        }

        enum CodingKeys: String, CodingKey { case start, end, days }
    }

    struct UserView: Encodable {
        var record: UserRecord
        var devices: [DeviceView]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            let profile = record.profile
            try container.encode(profile.id, forKey: .id)
            try container.encode(profile.locale, forKey: .locale)
            try container.encode(profile.timeZone, forKey: .timeZone)
            try container.encode(profile.quietHours.map(QuietHoursView.init), forKey: .quietHours)
            try container.encode(profile.badge, forKey: .badge)
            try container.encode(record.createdAt, forKey: .createdAt)
            try container.encode(record.updatedAt, forKey: .updatedAt)
            try container.encode(devices, forKey: .devices)
        }

        enum CodingKeys: String, CodingKey {
            case id, locale, badge, devices
            case timeZone = "time_zone"
            case quietHours = "quiet_hours"
            case createdAt = "created_at"
            case updatedAt = "updated_at"
        }
    }

    struct DeviceView: Encodable {
        var record: DeviceRecord
        var stale: Bool

        init(_ record: DeviceRecord, now: Date) {
            self.record = record
            self.stale = DeviceStaleness.isStale(lastRegisteredAt: record.device.lastRegisteredAt, now: now)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            let device = record.device
            try container.encode(device.installationId, forKey: .installationId)
            try container.encode(device.userId, forKey: .userId)
            try container.encode(device.platform.rawValue, forKey: .platform)
            if let keys = device.webPushKeys {
                try container.encode(
                    ["endpoint": device.token, "p256dh": keys.p256dh, "auth": keys.auth], forKey: .token)
            } else {
                try container.encode(device.token, forKey: .token)
            }
            try container.encode(device.environment.rawValue, forKey: .environment)
            try container.encode(device.appId, forKey: .appId)
            try container.encode(device.locale, forKey: .locale)
            try container.encode(device.appVersion, forKey: .appVersion)
            try container.encode(device.appBuildsNotifications, forKey: .appBuildsNotifications)
            try container.encode(device.active, forKey: .active)
            try container.encode(stale, forKey: .stale)
            try container.encode(device.lastRegisteredAt, forKey: .lastRegisteredAt)
            try container.encode(record.createdAt, forKey: .createdAt)
            try container.encode(record.deactivatedAt, forKey: .deactivatedAt)
            try container.encode(record.deactivationReason, forKey: .deactivationReason)
        }

        enum CodingKeys: String, CodingKey {
            case platform, token, environment, locale, active, stale
            case installationId = "installation_id"
            case userId = "user_id"
            case appId = "app_id"
            case appVersion = "app_version"
            case appBuildsNotifications = "app_builds_notifications"
            case lastRegisteredAt = "last_registered_at"
            case createdAt = "created_at"
            case deactivatedAt = "deactivated_at"
            case deactivationReason = "deactivation_reason"
        }
    }

    struct MuteView: Encodable {
        var record: MuteRecord

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(record.mute.id, forKey: .id)
            try container.encode(record.mute.scope.rawValue, forKey: .scope)
            try container.encode(record.mute.key, forKey: .key)
            try container.encode(record.mute.until, forKey: .until)
            try container.encode(record.createdAt, forKey: .createdAt)
        }

        enum CodingKeys: String, CodingKey {
            case id, scope, key, until
            case createdAt = "created_at"
        }
    }

    struct PreferenceView: Encodable {
        var category: String
        var setting: String
        var source: String
        var userSetting: String?

        init(category: PreferenceCategory, userSetting: PreferenceSetting?) {
            let effective = category.effective(userSetting: userSetting)
            self.category = category.id
            self.setting = effective.setting.rawValue
            self.source = effective.source.rawValue
            self.userSetting = userSetting?.rawValue
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(category, forKey: .category)
            try container.encode(setting, forKey: .setting)
            try container.encode(source, forKey: .source)
            try container.encode(userSetting, forKey: .userSetting)
        }

        enum CodingKeys: String, CodingKey {
            case category, setting, source
            case userSetting = "user_setting"
        }
    }

    struct Items<Item: Encodable>: Encodable {
        var items: [Item]
    }
}
