/// What a campaign does with zones whose local send time has already passed when it is created.
public enum LatePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// The zones are recorded in a skipped wave with their recipient count and never sent.
    case skip
    /// The zones are sent together in one wave due at creation.
    case sendNow = "send_now"
}
