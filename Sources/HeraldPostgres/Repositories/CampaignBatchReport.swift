/// What one campaign batch did.
public struct CampaignBatchReport: Sendable, Hashable {
    /// The campaign and wave the batch belonged to.
    public var campaignId: String
    public var wave: Int
    /// Users the page returned.
    public var selected: Int
    /// Users newly handed to the pipeline (the rest had the campaign already).
    public var enqueued: Int
    /// The wave has no recipients left (or was canceled).
    public var waveFinished: Bool
    /// The batch number skipped because its event key was already taken; the wave goes on under the next one.
    public var skippedBatch: Int?

    /// A report.
    public init(
        campaignId: String, wave: Int, selected: Int, enqueued: Int, waveFinished: Bool, skippedBatch: Int? = nil
    ) {
        self.campaignId = campaignId
        self.wave = wave
        self.selected = selected
        self.enqueued = enqueued
        self.waveFinished = waveFinished
        self.skippedBatch = skippedBatch
    }
}
