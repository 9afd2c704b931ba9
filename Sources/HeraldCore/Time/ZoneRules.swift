import Foundation

/// A local wall-clock date and time, without a zone.
public struct LocalDateTime: Sendable, Hashable, Codable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }
}

/// The rules of one IANA time zone, as Herald's wall-time policy needs them.
///
/// Implemented over ICU in `HeraldText`; `HeraldCore` only sees this protocol, so the policy stays pure.
public protocol ZoneRules: Sendable {
    /// The canonical IANA identifier, e.g. "America/New_York".
    var identifier: String { get }
    /// The total UTC offset in seconds in effect at `instant`.
    func offsetSeconds(at instant: Date) -> Int
    /// The first offset change strictly after `instant`, if the zone has one.
    func nextTransition(after instant: Date) -> Date?
    /// The instant of a local wall time, by Herald's DST policy: a skipped time resolves to the first valid instant
    /// after the gap, a repeated time to its first occurrence.
    func instant(for local: LocalDateTime) -> Date
}

/// Looks up zone rules by IANA identifier; unknown identifiers give `nil`, never UTC.
public protocol ZoneDirectory: Sendable {
    /// The rules of `identifier` (aliases accepted), or `nil` when the tz data does not know it.
    func zone(_ identifier: String) -> (any ZoneRules)?
}
