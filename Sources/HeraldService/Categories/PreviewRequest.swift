import HeraldCore
import HeraldHTTP
import HeraldText

/// What a product manager asks a preview for: a locale, sample event data, how many events (more than one renders
/// the digest of a collapsed burst), and the device's platform and zone.
struct PreviewRequest: Sendable {
    static let maxCount = 10_000
    static let maxDataMembers = 100
    static let maxActors = 50
    static let members: Set<String> = [
        "locale", "data", "count", "platform", "time_zone", "actors", "thread_id", "item_id",
        "app_builds_notifications", "app_id", "image_url", "link",
    ]

    /// The device's locale, canonical; nil means the category's default locale.
    var locale: String?
    var data: [String: HeraldCore.JSONValue] = [:]
    var count = 1
    var platform: Device.Platform = .apns
    var timeZone = "UTC"
    /// Display names of the events' actors, cycled through the burst.
    var actors: [String] = []
    var threadId: String?
    var itemId: String?
    var appBuildsNotifications = true
    var appId = "com.example.app"
    /// The event's own image and link, as an event would carry them; without them the category's templates apply.
    var imageURL: String?
    var link: String?

    /// Reads a preview request, reporting every bad member at once; `knowsZone` checks IANA zone ids.
    static func read(_ body: HeraldHTTP.JSONValue, knowsZone: (String) -> Bool) throws(HTTPError) -> PreviewRequest {
        guard case .object(let members) = body else {
            throw HTTPError.invalidField("", "The body must be a JSON object.")
        }
        var request = PreviewRequest()
        var errors: [FieldError] = []
        func fail(_ pointer: String, _ code: String, _ detail: String) {
            errors.append(FieldError(pointer: pointer, code: code, message: detail))
        }
        func text(_ name: String, maxBytes: Int) -> String? {
            switch members[name] {
            case nil, .null?: return nil
            case .string(let value)? where !value.isEmpty && value.utf8.count <= maxBytes: return value
            case .string?: fail("/" + name, "invalid_length", "must be 1 to \(maxBytes) bytes")
            default: fail("/" + name, "invalid_type", "must be a string")
            }
            return nil
        }
        for name in members.keys.sorted() where !Self.members.contains(name) {
            fail("/" + FieldError.token(name), "unknown_member", "is not a member of a preview request")
        }
        if let locale = text("locale", maxBytes: 64) {
            if let canonical = ICUMessageRenderer.canonicalLocale(locale), CategoryRules.isLocaleTag(canonical) {
                request.locale = canonical
            } else {
                fail("/locale", "invalid_locale", "is not a BCP 47 locale tag")
            }
        }
        switch members["data"] {
        case nil, .null?: break
        case .object(let data)? where data.count <= Self.maxDataMembers: request.data = data.mapValues(Self.core)
        case .object?: fail("/data", "too_many", "at most \(Self.maxDataMembers) members")
        default: fail("/data", "invalid_type", "must be an object")
        }
        switch members["count"] {
        case nil, .null?: break
        case .int(let count)? where (1...Self.maxCount).contains(count): request.count = count
        case .int?: fail("/count", "out_of_range", "must be between 1 and \(Self.maxCount)")
        default: fail("/count", "invalid_type", "must be an integer")
        }
        if let platform = text("platform", maxBytes: 16) {
            if let value = Device.Platform(rawValue: platform) {
                request.platform = value
            } else {
                fail("/platform", "invalid_value", "must be one of 'apns', 'fcm', 'webpush', 'wns'")
            }
        }
        if let zone = text("time_zone", maxBytes: 64) {
            if knowsZone(zone) {
                request.timeZone = zone
            } else {
                fail("/time_zone", "unknown_zone", "is not an IANA zone")
            }
        }
        switch members["actors"] {
        case nil, .null?: break
        case .array(let names)? where names.count <= Self.maxActors:
            for (index, name) in names.enumerated() {
                if case .string(let value) = name, !value.isEmpty, value.utf8.count <= 256 {
                    request.actors.append(value)
                } else {
                    fail("/actors/\(index)", "invalid_type", "must be a name of 1 to 256 bytes")
                }
            }
        case .array?: fail("/actors", "too_many", "at most \(Self.maxActors) names")
        default: fail("/actors", "invalid_type", "must be an array of names")
        }
        request.threadId = text("thread_id", maxBytes: Event.maxIdentifierBytes)
        request.itemId = text("item_id", maxBytes: Event.maxIdentifierBytes)
        switch members["app_builds_notifications"] {
        case nil, .null?: break
        case .bool(let flag)?: request.appBuildsNotifications = flag
        default: fail("/app_builds_notifications", "invalid_type", "must be true or false")
        }
        if let appId = text("app_id", maxBytes: 255) { request.appId = appId }
        if let image = text("image_url", maxBytes: NotificationMedia.maxBytes) {
            if NotificationMedia.isImageURL(image) {
                request.imageURL = image
            } else {
                fail("/image_url", "invalid_format", "must be an https:// address")
            }
        }
        if let link = text("link", maxBytes: NotificationMedia.maxBytes) {
            if NotificationMedia.isLink(link) {
                request.link = link
            } else {
                fail("/link", "invalid_format", "must be an https:// address or an app's deep link")
            }
        }
        if !errors.isEmpty { throw HTTPError.invalidFields(errors) }
        return request
    }

    /// The domain's form of a JSON value from the wire.
    static func core(_ value: HeraldHTTP.JSONValue) -> HeraldCore.JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .array(let elements): .array(elements.map(core))
        case .object(let members): .object(members.mapValues(core))
        }
    }
}
