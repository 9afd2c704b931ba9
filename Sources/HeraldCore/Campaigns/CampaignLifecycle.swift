/// The state a campaign wave is stored in.
public enum WaveState: String, Sendable, Hashable, CaseIterable {
    /// Planned, not begun.
    case pending
    /// Handing out its recipients, batch by batch.
    case running
    /// Every segment handed out.
    case done
    /// Its local time had passed when it was planned and the campaign skips late zones.
    case skipped
    /// Its campaign was canceled before it was done.
    case canceled

    /// Whether the wave has recipients left to hand out: a runner claims only these, and canceling stops only these.
    /// The partial index `campaign_waves_due` and the statements it serves name the same two states.
    public var isOpen: Bool { self == .pending || self == .running }
}

/// Where a wave's hand-out stands. Its segments are its zones in order, then the users without a zone when it sends
/// them; within a segment, users go in id order after the last one handed out.
public struct WaveCursor: Sendable, Hashable {
    /// The segment the next page is read from.
    public private(set) var segment: Int
    /// The last user handed out in that segment; empty at its start.
    public private(set) var after: String
    /// How many segments the wave has.
    public let segments: Int
    let zones: [String]

    /// The cursor of a wave sending `zones` (and the users without a zone when `sendsZoneless`), as stored.
    public init(zones: [String], sendsZoneless: Bool, segment: Int, after: String) {
        self.zones = zones
        self.segments = zones.count + (sendsZoneless ? 1 : 0)
        self.segment = segment
        self.after = after
    }

    /// Whether every segment is handed out.
    public var isFinished: Bool { segment >= segments }

    /// The zone the next page is read from, nil for the users without a zone; nil too once finished (`isFinished`).
    public var zone: String? { segment < zones.count ? zones[segment] : nil }

    /// Moves past `ids`, the page read from the current segment when asking for `limit`: a shorter page ends the
    /// segment, and the next one starts from its beginning.
    public mutating func advance(past ids: [String], limit: Int) {
        if ids.count < limit {
            segment += 1
            after = ""
        } else if let last = ids.last {
            after = last
        }
    }

    /// The wave's state after a batch that left the cursor here.
    public var stateAfterBatch: WaveState { isFinished ? .done : .running }
}

/// What a campaign's waves add up to.
public enum CampaignStatus: String, Sendable, Hashable, CaseIterable {
    /// No wave has begun.
    case scheduled
    /// A wave has begun and one is left.
    case running
    /// Every wave is done or skipped.
    case completed
    /// Canceled, whatever its waves had done.
    case canceled

    /// The status of a campaign whose waves are in `waves`.
    public static func of(canceled: Bool, waves: [WaveState]) -> CampaignStatus {
        if canceled { return .canceled }
        if waves.allSatisfy({ $0 == .done || $0 == .skipped }) { return .completed }
        return waves.contains { $0 == .running || $0 == .done } ? .running : .scheduled
    }

    /// Whether a cancel changes the campaign: one scheduled or running still has waves to stop; a completed one
    /// has nothing left to stop and stays completed, and a canceled one stays as it was canceled.
    public var takesCancel: Bool { self == .scheduled || self == .running }

    /// Whether the campaign's progress can no longer move, so a client following it may stop: canceled, or
    /// completed with every recipient it handed to the pipeline decided. Handed out can be fewer than planned (a
    /// user who moved to a zone whose wave had already run, or who was deleted, was planned and never sent), and a
    /// completed campaign's last decisions may still be on their way through the pipeline.
    public func isSettled(decided: Int, enqueued: Int) -> Bool {
        self == .canceled || (self == .completed && decided >= enqueued)
    }
}
