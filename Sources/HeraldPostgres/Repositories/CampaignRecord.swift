import Foundation
import HeraldCore

/// A stored campaign as planned (its waves are `CampaignWaveRecord`s).
public struct CampaignRecord: Sendable, Hashable {
    public var id: String
    public var categoryId: String
    public var audience: CampaignAudience
    /// The local date, `YYYY-MM-DD`.
    public var date: String
    /// The local time, `HH:MM`.
    public var localTime: String
    /// The event data as JSON object text.
    public var data: String
    /// `skip` or `send_now`.
    public var late: String
    public var defaultTimeZone: String
    public var unknownZones: [String]
    public var createdAt: Date
    public var canceledAt: Date?

    /// A campaign record.
    public init(
        id: String, categoryId: String, audience: CampaignAudience, date: String, localTime: String, data: String,
        late: String, defaultTimeZone: String, unknownZones: [String], createdAt: Date, canceledAt: Date? = nil
    ) {
        self.id = id
        self.categoryId = categoryId
        self.audience = audience
        self.date = date
        self.localTime = localTime
        self.data = data
        self.late = late
        self.defaultTimeZone = defaultTimeZone
        self.unknownZones = unknownZones
        self.createdAt = createdAt
        self.canceledAt = canceledAt
    }
}
