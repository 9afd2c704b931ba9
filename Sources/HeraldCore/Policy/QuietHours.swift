import Foundation

/// A recipient's nightly (or daily) window of silence in local wall-clock time.
///
/// `start` and `end` are local times; `end <= start` means the window crosses midnight. `days`, when present, names
/// the weekdays on which a window *starts*. Wall times are turned into instants only through `ZoneRules`, so a
/// window on a 23- or 25-hour day is as long as the wall clock says, and a start or end that falls into a DST gap
/// resolves by Herald's policy (the first instant after the gap).
public struct QuietHours: Sendable, Hashable, Codable {
    public var start: LocalTime
    public var end: LocalTime
    public var days: Set<Weekday>?

    /// Creates quiet hours.
    public init(start: LocalTime, end: LocalTime, days: Set<Weekday>? = nil) {
        self.start = start
        self.end = end
        self.days = days
    }

    /// Whether the window runs past midnight into the next day.
    public var crossesMidnight: Bool { end <= start }

    /// Problems with the shape, each with a pointer relative to the quiet hours object.
    public func validate() -> [FieldError] {
        var errors: [FieldError] = []
        if start == end {
            errors.append(
                FieldError(pointer: "/end", code: "invalid_value", message: "must differ from start"))
        }
        if let days, days.isEmpty {
            errors.append(
                FieldError(pointer: "/days", code: "invalid_value", message: "must name at least one day"))
        }
        return errors
    }

    /// The window that starts on the local date `date`, or `nil` when none starts that day (weekday not chosen, or
    /// both ends fall into the same DST gap).
    public func window(startingOn date: CivilDate, in zone: any ZoneRules) -> DateInterval? {
        if let days, !days.contains(date.weekday) { return nil }
        let opens = zone.instant(for: date.at(start))
        let closes = zone.instant(for: (crossesMidnight ? date.adding(days: 1) : date).at(end))
        guard opens < closes else { return nil }
        return DateInterval(start: opens, end: closes)
    }

    /// The window containing `instant` (start inclusive, end exclusive), if any.
    public func window(containing instant: Date, in zone: any ZoneRules) -> DateInterval? {
        let today = CivilDate.local(at: instant, in: zone)
        // A window containing the instant started today or (crossing midnight, or stretched by a DST change)
        // yesterday; the later start wins if both match.
        for date in [today, today.adding(days: -1)] {
            if let window = window(startingOn: date, in: zone), window.start <= instant,
                instant < window.end
            {
                return window
            }
        }
        return nil
    }

    /// When a push held at `instant` may go: the end of the window containing it, moved past any window that
    /// starts exactly there, so a deferral never lands inside quiet hours. `nil` when `instant` is outside.
    public func deferralEnd(for instant: Date, in zone: any ZoneRules) -> Date? {
        guard var end = window(containing: instant, in: zone)?.end else { return nil }
        // Adjacent windows exist only when both ends of a window share a DST gap; a few steps always suffice.
        for _ in 0..<8 {
            guard let next = window(containing: end, in: zone) else { return end }
            end = next.end
        }
        return end
    }
}
