import Foundation

extension ZoneRules {
    /// The local wall time at `instant` (to the second, fractions dropped).
    public func localDateTime(at instant: Date) -> LocalDateTime {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
        return LocalDateTime(secondsAsUTC: seconds + offsetSeconds(at: instant))
    }

    /// The local weekday at `instant`.
    public func weekday(at instant: Date) -> Weekday {
        localDateTime(at: instant).weekday
    }

    /// The first instant at or after `instant` whose local date, at `time`, resolves (by the DST policy of
    /// `instant(for:)`) to an instant not before `instant`.
    ///
    /// Each local date contributes exactly one candidate: a `time` skipped by a gap stands for the end of the gap,
    /// a repeated one for its first occurrence, so the answer is the same one the policy gives everywhere else.
    public func nextOccurrence(of time: LocalTime, atOrAfter instant: Date) -> Date {
        var day = localDateTime(at: instant)
        // Two days always suffice, unless a zone skips a whole calendar day (Samoa 2011): allow a few more.
        for _ in 0..<4 {
            let candidate = self.instant(for: day.at(time))
            if candidate >= instant { return candidate }
            day = day.addingDays(1)
        }
        return self.instant(for: day.at(time))
    }

    /// The instant of `time` on the local date `date` (its own time of day is ignored), by the DST policy.
    public func instant(on date: LocalDateTime, at time: LocalTime) -> Date {
        instant(for: date.at(time))
    }
}
