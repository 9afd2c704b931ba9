/// The waves of a campaign, in due order, and what the planner could not resolve.
public struct CampaignPlan: Sendable, Hashable {
    /// Every wave, skipped ones included, numbered from 1 in due order.
    public var waves: [PlannedWave]
    /// Zone ids the tz data does not know; their recipients are sent at the default zone's instant.
    public var unknownZones: [String]

    /// Recipients over all waves, skipped ones included.
    public var recipients: Int { waves.reduce(0) { $0 + $1.recipients } }

    /// A plan.
    public init(waves: [PlannedWave], unknownZones: [String]) {
        self.waves = waves
        self.unknownZones = unknownZones
    }
}
