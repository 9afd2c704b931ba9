import Foundation

/// A zone with one constant UTC offset and no transitions, e.g. for tests and `Etc/GMT-14`-like rules.
public struct FixedOffsetZone: ZoneRules, Hashable {
    /// The identifier reported by `identifier`.
    public let identifier: String
    /// The constant offset from UTC, in seconds.
    public let offset: Int

    /// A zone `offset` seconds east of UTC, named `identifier`.
    public init(identifier: String, offset: Int) {
        self.identifier = identifier
        self.offset = offset
    }

    /// Always `offset`.
    public func offsetSeconds(at instant: Date) -> Int { offset }

    /// Always `nil`: the offset never changes.
    public func nextTransition(after instant: Date) -> Date? { nil }

    /// The unique instant of `local`.
    public func instant(for local: LocalDateTime) -> Date {
        Date(timeIntervalSince1970: TimeInterval(local.secondsAsUTC - offset))
    }
}
