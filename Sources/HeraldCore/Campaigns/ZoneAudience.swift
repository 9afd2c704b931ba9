/// How many recipients of a campaign have one effective time zone (their own, or the campaign's default).
public struct ZoneAudience: Sendable, Hashable {
    /// The zone id as stored on the users (an IANA id or alias).
    public var zone: String
    /// Recipients in that zone.
    public var recipients: Int

    /// A zone and its recipient count.
    public init(zone: String, recipients: Int) {
        self.zone = zone
        self.recipients = recipients
    }
}
