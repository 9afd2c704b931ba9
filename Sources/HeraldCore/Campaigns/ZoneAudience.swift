/// How many recipients of a campaign have one time zone; users without a zone are counted apart (`zone` nil) and
/// get the campaign's default.
public struct ZoneAudience: Sendable, Hashable {
    /// The zone id as stored on the users (an IANA id or alias); nil for the users without one.
    public var zone: String?
    /// Recipients in that zone.
    public var recipients: Int

    /// A zone (nil: no zone) and its recipient count.
    public init(zone: String?, recipients: Int) {
        self.zone = zone
        self.recipients = recipients
    }
}
