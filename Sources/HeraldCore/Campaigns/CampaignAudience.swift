/// Who a campaign is sent to.
public enum CampaignAudience: Sendable, Hashable {
    /// Every user.
    case all
    /// The subscribers of a topic.
    case topic(String)
    /// An explicit list of user ids.
    case users([String])

    /// The stored kind: `all`, `topic` or `users`.
    public var kind: String {
        switch self {
        case .all: "all"
        case .topic: "topic"
        case .users: "users"
        }
    }
}
