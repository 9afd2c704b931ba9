import Foundation
import HeraldCore
import HeraldHTTP
import HeraldText

/// The body of `POST /v1/campaigns`, validated: every problem is reported with its JSON pointer.
struct CampaignRequest: Sendable {
    typealias Tree = HeraldHTTP.JSONValue

    var id: String?
    var category: String
    var audience: CampaignAudience
    var date: CivilDate
    var localTime: LocalTime
    var data: [String: Tree]
    var late: LatePolicy
    var defaultTimeZone: String

    /// The members a campaign request may have.
    static let members: Set<String> = [
        "id", "category", "audience", "local_time", "date", "data", "late", "default_time_zone",
    ]
    /// The most users an explicit audience may list; larger audiences use a topic.
    static let maxUsers = 10_000

    /// A campaign id: 1 to 64 of letters, digits, `.`, `_`, `-`.
    static func isCampaignId(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...64).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// Parses `YYYY-MM-DD` into a real calendar date from 1970-01-01 to 9999-12-30.
    static func parseDate(_ text: String) -> CivilDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 1970,
            // The last day's local times run into year 10000 in zones behind UTC, which no timestamp can name.
            (year, month, day) < (9999, 12, 31)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        return CivilDate(daysSinceEpoch: date.daysSinceEpoch) == date ? date : nil
    }

    /// The request, or a 422 naming every invalid member.
    static func parse(_ tree: Tree, zones: ICUZoneDirectory) throws -> CampaignRequest {
        guard case .object(let body) = tree else { throw HTTPError.invalidField("", "must be a JSON object") }
        var errors: [FieldError] = []
        func fail(_ pointer: String, _ detail: String) {
            errors.append(FieldError(pointer: pointer, message: detail))
        }
        func string(_ name: String, required: Bool) -> String? {
            switch body[name] {
            case .string(let text)?: return text
            case nil, .null?:
                if required { fail("/" + name, "is required") }
            default: fail("/" + name, "must be a string")
            }
            return nil
        }
        for name in body.keys.sorted() where !members.contains(name) {
            fail("/" + FieldError.token(name), "is not a member of a campaign")
        }
        let id = string("id", required: false)
        if let id, !isCampaignId(id) { fail("/id", "must be 1 to 64 of letters, digits, '.', '_', '-'") }
        let category = string("category", required: true)
        if let category, !CategoryRules.isSlug(category) { fail("/category", "is not a category id") }
        let audience = parseAudience(body["audience"], fail: fail)
        let dateText = string("date", required: true)
        let date = dateText.flatMap(parseDate)
        if dateText != nil, date == nil {
            fail("/date", "must be a calendar date YYYY-MM-DD, 1970-01-01 to 9999-12-30")
        }
        let timeText = string("local_time", required: true)
        let time = timeText.flatMap { LocalTime($0) }
        if timeText != nil, time == nil { fail("/local_time", "must be a local time HH:MM from 00:00 to 23:59") }
        var data: [String: Tree] = [:]
        switch body["data"] {
        case .object(let object)?: data = object
        case nil, .null?: break
        default: fail("/data", "must be an object")
        }
        var late = LatePolicy.skip
        if let text = string("late", required: false) {
            if let policy = LatePolicy(rawValue: text) {
                late = policy
            } else {
                fail("/late", "must be skip or send_now")
            }
        }
        let defaultZone = string("default_time_zone", required: false) ?? "UTC"
        if zones.zone(defaultZone) == nil { fail("/default_time_zone", "is not a time zone of the tz database") }
        guard errors.isEmpty, let category, let audience, let date, let time else {
            throw HTTPError.invalidFields(errors)
        }
        return CampaignRequest(
            id: id, category: category, audience: audience, date: date, localTime: time, data: data, late: late,
            defaultTimeZone: defaultZone)
    }

    /// `{"all": true}`, `{"topic": "news"}` or `{"users": ["u1", …]}`: exactly one of them.
    private static func parseAudience(
        _ value: Tree?, fail: (String, String) -> Void
    ) -> CampaignAudience? {
        let shape = "must be {\"all\": true}, {\"topic\": ...} or {\"users\": [...]}"
        guard let value else {
            fail("/audience", "is required")
            return nil
        }
        guard case .object(let members) = value, members.count == 1, let (name, member) = members.first else {
            fail("/audience", shape)
            return nil
        }
        switch (name, member) {
        case ("all", .bool(true)):
            return .all
        case ("topic", .string(let topic)):
            guard OpaqueIdentifier.isValid(topic, maxLength: 200) else {
                fail("/audience/topic", "is not a topic")
                return nil
            }
            return .topic(topic)
        case ("users", .array(let items)):
            guard (1...maxUsers).contains(items.count) else {
                fail("/audience/users", "lists 1 to \(maxUsers) user ids; use a topic for more")
                return nil
            }
            var users: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let user) = item, OpaqueIdentifier.isValid(user) else {
                    fail("/audience/users/\(index)", "is not a user id")
                    continue
                }
                users.append(user)
            }
            return users.count == items.count ? .users(users) : nil
        default:
            fail("/audience", shape)
            return nil
        }
    }
}
