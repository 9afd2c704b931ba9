import Foundation

/// One stored wave of a campaign with its cursor counters.
public struct CampaignWaveRecord: Sendable, Hashable {
    public var campaignId: String
    public var number: Int
    public var dueAt: Date
    public var zones: [String]
    /// Whether the wave also sends the users without a zone (it holds the campaign's default zone).
    public var sendsZoneless: Bool
    /// Recipients counted at planning.
    public var planned: Int
    /// `pending`, `running`, `done`, `skipped` or `canceled`.
    public var state: String
    public var batches: Int
    /// Users the wave's pages returned (including any the campaign had already reached in another wave).
    public var selected: Int
    /// Users handed to the pipeline by this wave.
    public var enqueued: Int
    public var startedAt: Date?
    public var finishedAt: Date?

    /// A wave record.
    public init(
        campaignId: String, number: Int, dueAt: Date, zones: [String], sendsZoneless: Bool, planned: Int,
        state: String, batches: Int = 0, selected: Int = 0, enqueued: Int = 0, startedAt: Date? = nil,
        finishedAt: Date? = nil
    ) {
        self.campaignId = campaignId
        self.number = number
        self.dueAt = dueAt
        self.zones = zones
        self.sendsZoneless = sendsZoneless
        self.planned = planned
        self.state = state
        self.batches = batches
        self.selected = selected
        self.enqueued = enqueued
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }
}
