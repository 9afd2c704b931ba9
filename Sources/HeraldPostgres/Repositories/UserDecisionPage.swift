/// A page of a user's decisions, newest first.
public struct UserDecisionPage: Sendable {
    public var records: [UserDecisionRecord]
    /// Whether older decisions follow the last record.
    public var hasMore: Bool
}
