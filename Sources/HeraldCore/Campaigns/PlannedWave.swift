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
    /// Whether the wave also sends to the users without a zone: the wave of the campaign's default zone.
    public var sendsZoneless: Bool
    /// When the wave finished: a skipped wave is finished as it is planned; a pending one has not begun.
    public var finishedAt: Date?

    /// A wave.
    public init(
        number: Int, dueAt: Date, zones: [String], recipients: Int, state: State, sendsZoneless: Bool = false,
        finishedAt: Date? = nil
    ) {
        self.number = number
        self.dueAt = dueAt
        self.zones = zones
        self.recipients = recipients
        self.state = state
        self.sendsZoneless = sendsZoneless
        self.finishedAt = finishedAt
    }
}
