import Foundation

/// `ZoneRules` answered entirely from a `ZoneTransitionTable`, valid for every instant the table covers.
public struct TableZone: ZoneRules, Hashable {
    /// The zone's canonical identifier.
    public let identifier: String
    /// The offsets and their changes.
    public let table: ZoneTransitionTable

    /// Rules named `identifier` with the offsets of `table`.
    public init(identifier: String, table: ZoneTransitionTable) {
        self.identifier = identifier
        self.table = table
    }

    /// The offset from the table.
    public func offsetSeconds(at instant: Date) -> Int {
        table.offset(at: Int(instant.timeIntervalSince1970.rounded(.down)))
    }

    /// The next change from the table.
    public func nextTransition(after instant: Date) -> Date? {
        table.nextTransition(after: Int(instant.timeIntervalSince1970.rounded(.down)))
            .map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// The policy instant from the table.
    public func instant(for local: LocalDateTime) -> Date {
        Date(timeIntervalSince1970: TimeInterval(table.resolve(localSecondsAsUTC: local.secondsAsUTC)))
    }
}
