import Foundation

/// One wave of a campaign plan: every zone whose local send time falls on the same UTC instant.
public struct PlannedWave: Sendable, Hashable {
    /// Whether the wave will run.
    public enum State: String, Sendable, Hashable, Codable {
        /// Due at `dueAt`.
        case pending
        /// Its local time had passed at planning and the late policy is `skip`.
        case skipped
    }

    /// 1-based position in due order.
    public var number: Int
    /// The UTC instant the wave is due.
    public var dueAt: Date
    /// The zone ids sent in this wave, sorted bytewise.
    public var zones: [String]
    /// Recipients counted in these zones at planning.
    public var recipients: Int
    /// Pending or skipped.
    public var state: State

    /// A wave.
    public init(number: Int, dueAt: Date, zones: [String], recipients: Int, state: State) {
        self.number = number
        self.dueAt = dueAt
        self.zones = zones
        self.recipients = recipients
        self.state = state
    }
}
