import Foundation

/// What an event of a `live_activity` category tells a running iOS Live Activity: which activity, whether it is an
/// update or its end, and when it goes stale or leaves the Lock Screen. The new content state is the event's `data`.
public struct LiveActivityUpdate: Sendable, Hashable, Codable {
    /// The push event, as ActivityKit names it (a push cannot start an activity registered by token).
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case update
        case end
    }

    /// The app's own id of the activity, under which its devices registered their activity push tokens.
    public var activityId: String
    public var event: Kind
    /// When the system shows the activity as out of date (`aps.stale-date`).
    public var staleDate: Date?
    /// When an ended activity leaves the Lock Screen (`aps.dismissal-date`); in the past, at once.
    public var dismissalDate: Date?

    /// The most bytes of serialized `data` an event carries as the activity's content state: with the keys beside
    /// it, the push stays within APNs' 4096 bytes, since a content state cannot be shortened.
    public static let maxContentStateBytes = 3_072

    /// Creates an update.
    public init(activityId: String, event: Kind = .update, staleDate: Date? = nil, dismissalDate: Date? = nil) {
        self.activityId = activityId
        self.event = event
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
    }

    enum CodingKeys: String, CodingKey {
        case event
        case activityId = "activity_id"
        case staleDate = "stale_date"
        case dismissalDate = "dismissal_date"
    }

    /// The stored form, dates in their one text form.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["activity_id": .string(activityId), "event": .string(event.rawValue)]
        if let staleDate { members["stale_date"] = .string(ISO8601.format(staleDate)) }
        if let dismissalDate { members["dismissal_date"] = .string(ISO8601.format(dismissalDate)) }
        return .object(members)
    }

    /// The update a stored or received JSON value holds, or nil when it is not one; `errors` collects why, under
    /// `/live_activity`.
    public init?(json: JSONValue, errors: inout [FieldError]) {
        let before = errors.count
        func fail(_ member: String, _ code: String, _ message: String) {
            errors.append(FieldError(pointer: "/live_activity" + member, code: code, message: message))
        }
        guard case .object(let members) = json else {
            fail("", "invalid_type", "must be an object with activity_id and event")
            return nil
        }
        for name in members.keys.sorted() where CodingKeys(rawValue: name) == nil {
            fail("/" + FieldError.token(name), "unknown_member", "is not a member of live_activity")
        }
        var activityId = ""
        if case .string(let text)? = members["activity_id"], OpaqueIdentifier.isValid(text) {
            activityId = text
        } else {
            fail("/activity_id", "invalid_format", OpaqueIdentifier.rule())
        }
        var event = Kind.update
        switch members["event"] {
        case nil, .null?: break
        case .string(let text)? where Kind(rawValue: text) != nil: event = Kind(rawValue: text)!
        default: fail("/event", "invalid_value", "must be 'update' or 'end'")
        }
        func date(_ name: String) -> Date? {
            switch members[name] {
            case nil, .null?: return nil
            case .string(let text)?:
                if let date = ISO8601.parse(text) { return date }
            default: break
            }
            fail("/" + name, "invalid_format", "must be an RFC 3339 date-time such as 2026-12-01T09:00:00Z")
            return nil
        }
        let stale = date("stale_date")
        let dismissal = date("dismissal_date")
        guard errors.count == before else { return nil }
        self.init(activityId: activityId, event: event, staleDate: stale, dismissalDate: dismissal)
    }
}
