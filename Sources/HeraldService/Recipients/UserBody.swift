import Foundation
import HeraldCore

/// The body of `PUT /v1/users/{id}` (and the user part of an import line). PUT replaces the profile, so an absent
/// member means "not set".
struct UserBody: Decodable {
    var locale: String?
    var timeZone: String?
    var quietHours: QuietHoursBody?
    var badge: Bool?

    /// Quiet hours as sent: local `HH:MM` times and optional weekday names.
    struct QuietHoursBody: Decodable {
        var start: String
        var end: String
        var days: [String]?
    }

    /// The profile of user `id`, or every problem found; pointers are placed under `prefix`.
    func profile(
        id: String, validator: inout RecipientValidator, prefix: String = ""
    ) -> Result<UserProfile, ValidationFailure> {
        var errors: [FieldError] = []
        var profile = UserProfile(id: id, badge: badge ?? true)
        if let locale {
            profile.locale = validator.locale(locale, at: prefix + "/locale", into: &errors)
        }
        if let timeZone {
            if let canonical = validator.canonicalZone(timeZone) {
                profile.timeZone = canonical
            } else {
                errors.append(
                    .init(
                        pointer: prefix + "/time_zone",
                        message:
                            "is not a time zone of the tz data Herald runs on; use an IANA id such as Europe/Berlin"))
            }
        }
        if let quietHours {
            profile.quietHours = quietHours.validated(prefix: prefix + "/quiet_hours", errors: &errors)
            if timeZone == nil {
                errors.append(
                    .init(pointer: prefix + "/time_zone", message: "is required when quiet_hours are set"))
            }
        }
        return errors.isEmpty ? .success(profile) : .failure(ValidationFailure(errors: errors))
    }
}

extension UserBody.QuietHoursBody {
    /// The quiet hours, or nil with the problems appended.
    func validated(prefix: String, errors: inout [FieldError]) -> QuietHours? {
        let startTime = LocalTime(start)
        let endTime = LocalTime(end)
        if startTime == nil { errors.append(.init(pointer: prefix + "/start", message: "must be a local time HH:MM")) }
        if endTime == nil { errors.append(.init(pointer: prefix + "/end", message: "must be a local time HH:MM")) }
        var weekdays: Set<Weekday>?
        if let days {
            var chosen = Set<Weekday>()
            for (index, name) in days.enumerated() {
                guard let day = Weekday(rawValue: name) else {
                    errors.append(
                        .init(
                            pointer: "\(prefix)/days/\(index)",
                            message: "must be one of mon, tue, wed, thu, fri, sat, sun"))
                    continue
                }
                if !chosen.insert(day).inserted {
                    errors.append(.init(pointer: "\(prefix)/days/\(index)", message: "is listed twice"))
                }
            }
            weekdays = chosen
        }
        guard let startTime, let endTime else { return nil }
        let quietHours = QuietHours(start: startTime, end: endTime, days: weekdays)
        let problems = quietHours.validate()
        errors.append(contentsOf: problems.map { $0.under(prefix) })
        return problems.isEmpty ? quietHours : nil
    }
}

/// Field errors of one request body or import line.
struct ValidationFailure: Error {
    var errors: [FieldError]
}
