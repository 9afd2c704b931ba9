import Foundation

/// The badge a push shows when a sender is handed it.
///
/// Every push that carries a badge carries the user's absolute unread count, counted when the push was decided. Pushes
/// that go out when they are decided reach a device in the order they were decided, so the last one carries the
/// latest count. A push that was held back (quiet hours, a silent-push budget, a sender's retry) or handed out
/// again (its first sender's lease ran out) goes out after pushes decided later: an alert held until 07:00 would set
/// the badge back to the count of 23:00, below what an urgent push sent at 23:30 showed and below what is unread.
/// Handed out, such a push carries the count of that moment instead; a push handed out once, when it was decided,
/// keeps its own.
public enum PushBadge {
    /// Whether a push decided at `createdAt`, due at `availableAt` and now handed out for the `attempt`th time (1 for
    /// the first) waited, and so may go out after pushes decided later.
    public static func waited(createdAt: Date, availableAt: Date, attempt: Int) -> Bool {
        availableAt > createdAt || attempt > 1
    }

    /// The body of a push for `platform` as it is handed out: when it waited and `unread` (the user's unread count
    /// now) is known, every badge it carries says `unread`. A body that carries no badge (the user turned it off, a
    /// push with none), cannot be read, or would outgrow its platform's limit is returned as it was.
    public static func handedOut(
        platform: Device.Platform, body: String, createdAt: Date, availableAt: Date, attempt: Int = 1, unread: Int?
    ) -> String {
        guard let unread, waited(createdAt: createdAt, availableAt: availableAt, attempt: attempt) else {
            return body
        }
        let badge = max(0, unread)
        let rewritten =
            (platform == .wns ? wnsBadge(body, to: badge) : nil) ?? json(body, at: locations(for: platform), to: badge)
        guard let rewritten, rewritten.utf8.count <= maxBodyBytes(for: platform) else { return body }
        return rewritten
    }

    /// Where a badge sits in a JSON body, and whether it is written as a number or as a string of digits (FCM's
    /// `data` holds strings only).
    struct Location {
        var path: [String]
        var asText = false
    }

    /// Every place the builders write a badge, per platform. A WNS body in JSON is a raw push, which carries the
    /// Web Push members.
    static func locations(for platform: Device.Platform) -> [Location] {
        switch platform {
        case .apns:
            return [Location(path: ["aps", "badge"]), Location(path: ["badge"])]
        case .fcm:
            return [
                Location(path: ["message", "data", "badge"], asText: true),
                Location(path: ["message", "android", "notification", "notification_count"]),
                Location(path: ["message", "apns", "payload", "aps", "badge"]),
                Location(path: ["message", "apns", "payload", "badge"]),
            ]
        case .webpush, .wns:
            return [Location(path: ["badge"]), Location(path: ["app_badge"])]
        }
    }

    static func maxBodyBytes(for platform: Device.Platform) -> Int {
        switch platform {
        case .apns: return APNsPayload.maxBodyBytes
        case .fcm: return FCMPayload.maxBodyBytes
        case .webpush: return WebPushPayload.maxBodyBytes
        case .wns: return WNSPayload.maxBodyBytes
        }
    }

    /// `body` with the badge at each of `locations` that holds one set to `badge`; nil when it holds none.
    private static func json(_ body: String, at locations: [Location], to badge: Int) -> String? {
        guard var value = try? JSONParser.parse(Array(body.utf8)) else { return nil }
        var changed = false
        for location in locations {
            if let replaced = replacing(
                value, at: location.path[...], with: location.asText ? .string("\(badge)") : .int(badge))
            {
                value = replaced
                changed = true
            }
        }
        return changed ? String(decoding: value.serialized(), as: UTF8.self) : nil
    }

    /// `value` with the member at `path` replaced by `badge`, or nil when there is no such member.
    private static func replacing(_ value: JSONValue, at path: ArraySlice<String>, with badge: JSONValue) -> JSONValue?
    {
        guard case .object(var members) = value, let name = path.first, let member = members[name] else { return nil }
        if path.count > 1 {
            guard let replaced = replacing(member, at: path.dropFirst(), with: badge) else { return nil }
            members[name] = replaced
        } else {
            switch (member, badge) {
            case (.int, .int), (.string, .string): members[name] = badge
            default: return nil
            }
        }
        return .object(members)
    }

    /// A WNS badge notification (`<badge value="3"/>`) saying `badge`; nil for any other body (a toast's XML, JSON).
    private static func wnsBadge(_ body: String, to badge: Int) -> String? {
        let prefix = "<badge value=\""
        let suffix = "\"/>"
        guard body.hasPrefix(prefix), body.hasSuffix(suffix),
            Int(body.dropFirst(prefix.count).dropLast(suffix.count)) != nil
        else { return nil }
        return prefix + "\(badge)" + suffix
    }
}
